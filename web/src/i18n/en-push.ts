// Strings of Web Push: the account section that turns push on for this browser and lists the
// agent's devices (features/notifications-push).
export const enPush = {
  'account.push.title': 'Push notifications on this device',
  'account.push.hint':
    'Get your notifications from the system, even when Parley is not open. Which notifications are pushed is chosen in your notification preferences.',
  'account.push.unsupported':
    'This browser cannot receive push notifications (it needs a secure https address, and a browser with Web Push).',
  'account.push.denied': 'Notifications are blocked for Parley in this browser. Allow them in the site settings, then try again.',
  'account.push.on': 'On for this browser.',
  'account.push.off': 'Off for this browser.',
  'account.push.enable': 'Turn on for this browser',
  'account.push.disable': 'Turn off for this browser',
  'account.push.enabled': 'Push notifications are on for this browser',
  'account.push.disabled': 'Push notifications are off for this browser',
  'account.push.notGranted': 'Notifications were not allowed, so push stays off.',
  'account.push.devices': 'Devices that receive your push notifications',
  'account.push.noDevices': 'No device receives your push notifications.',
  'account.push.device': '{browser} on {os}',
  'account.push.unknownDevice': 'Unknown browser',
  'account.push.thisDevice': 'This device',
  'account.push.lastSuccess': 'last push {when}',
  'account.push.neverPushed': 'added {when}, nothing pushed yet',
  'account.push.remove': 'Remove',
  'account.push.removeNamed': 'Remove {device}',
  'account.push.removed': '{device} no longer receives push notifications',
} as const;
