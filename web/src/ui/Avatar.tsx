import { Avatar as RadixAvatar } from 'radix-ui';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

/** A picture, or the initials while it loads or when there is none. Decorative: the name is shown beside it. */
export function Avatar({
  name,
  src,
  size = 'md',
  status,
}: {
  name: string;
  src?: string | null;
  size?: 'sm' | 'md' | 'lg';
  status?: string;
}) {
  return (
    <span className={`ui-avatar ui-avatar--${size}`} aria-hidden>
      <RadixAvatar.Root className="ui-avatar__root">
        {src ? <RadixAvatar.Image className="ui-avatar__image" src={src} alt="" /> : null}
        <RadixAvatar.Fallback className="ui-avatar__fallback">{initials(name)}</RadixAvatar.Fallback>
      </RadixAvatar.Root>
      {status ? <span className={`ui-avatar__status ui-avatar__status--${status}`} /> : null}
    </span>
  );
}
