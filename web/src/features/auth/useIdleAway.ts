// Idle detection (docs/api.md, "Agents and availability"): no keyboard, pointer or focus activity
// in any of the app's tabs for IDLE_MS sets `away` with `source: idle`; the next activity sets
// `available` again with `source: idle`. The server applies an idle change only over an available
// agent or an away that idle itself set, so a manual away, busy or offline is never overridden.
import { useEffect, useRef } from 'react';
import { useMe, useSetAvailability } from './session';

export const IDLE_MS = 10 * 60_000;
const ACTIVITY = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focus'] as const;
const CHANNEL = 'parley.activity';

export function useIdleAway(idleMs: number = IDLE_MS): void {
  const me = useMe();
  const setAvailability = useSetAvailability();
  const idle = useRef(false);
  const status = me.data?.availability_status;
  const statusRef = useRef(status);
  statusRef.current = status;
  const mutate = setAvailability.mutate;

  useEffect(() => {
    // Another tab's activity counts too: an agent working in one tab is not idle in the other.
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    let timer = 0;
    let lastBroadcast = 0;
    const arm = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (statusRef.current !== 'available') return;
        idle.current = true;
        mutate({ status: 'away', source: 'idle' });
      }, idleMs);
    };
    const active = (fromOtherTab: boolean) => {
      if (idle.current) {
        idle.current = false;
        if (statusRef.current === 'away') mutate({ status: 'available', source: 'idle' });
      }
      if (!fromOtherTab && channel && Date.now() - lastBroadcast > 5000) {
        lastBroadcast = Date.now();
        channel.postMessage('active');
      }
      arm();
    };
    const onActivity = () => active(false);
    const onOtherTab = () => active(true);
    for (const type of ACTIVITY) window.addEventListener(type, onActivity, { passive: true });
    channel?.addEventListener('message', onOtherTab);
    arm();
    return () => {
      window.clearTimeout(timer);
      for (const type of ACTIVITY) window.removeEventListener(type, onActivity);
      channel?.close();
    };
  }, [idleMs, mutate]);
}
