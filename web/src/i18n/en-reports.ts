// Strings of the reports screens (features/reports).
export const enReports = {
  'reports.title': 'Reports',
} as const;
