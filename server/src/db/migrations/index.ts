// The ordered list of migrations. Names are dated; the migrator applies them forward only.
import type { ParleyMigration } from '../concurrent-indexes.ts';
import * as foundation from './2026_11_22_0001_foundation.ts';
import * as contactsInboxes from './2026_11_22_0002_contacts_inboxes.ts';
import * as conversations from './2026_11_23_0003_conversations.ts';
import * as searchReports from './2026_11_23_0004_search_reports.ts';
import * as jobs from './2026_11_23_0005_jobs.ts';
import * as listIndexes from './2026_11_23_0006_list_indexes.ts';
import * as tagReportWindow from './2026_11_23_0007_tag_report_window.ts';
import * as reportRollups from './2026_11_23_0008_report_rollups.ts';
import * as agentRoleStartsConversations from './2026_11_23_0009_agent_role_starts_conversations.ts';
import * as widgetSessions from './2026_11_25_0010_widget_sessions.ts';
import * as widget from './2026_11_25_0011_widget.ts';
import * as realtime from './2026_11_25_0012_realtime.ts';
import * as webhooks from './2026_11_25_0013_webhooks.ts';
import * as oidc from './2026_11_25_0014_oidc.ts';
import * as ai from './2026_11_25_0015_ai.ts';
import * as webhookDispatch from './2026_11_25_0017_webhook_dispatch.ts';
import * as email from './2026_11_26_0018_email.ts';
import * as mediaContentId from './2026_11_26_0019_media_content_id.ts';
import * as emailLookups from './2026_11_26_0020_email_lookups.ts';
import * as businessHours from './2026_11_26_0021_business_hours.ts';
import * as sla from './2026_11_26_0022_sla.ts';
import * as csat from './2026_11_26_0023_csat.ts';
import * as serviceReport from './2026_11_26_0024_service_report.ts';
import * as serviceReportSpeed from './2026_11_26_0025_service_report_speed.ts';
import * as setupTokens from './2026_11_26_0026_setup_tokens.ts';
import * as searchFolding from './2026_11_27_0027_search_folding.ts';
import * as serviceRollups from './2026_11_27_0028_service_rollups.ts';
import * as searchWindows from './2026_11_27_0029_search_windows.ts';
import * as eventsNotifyAfterCommit from './2026_11_27_0030_events_notify_after_commit.ts';
import * as searchTextAscii from './2026_11_27_0031_search_text_ascii.ts';
import * as conversationCounts from './2026_11_27_0032_conversation_counts.ts';
import * as slaCycles from './2026_11_28_0033_sla_cycles.ts';
import * as agentsBackFromAbsence from './2026_11_28_0034_agents_back_from_absence.ts';
import * as serviceTagRollups from './2026_11_28_0035_service_tag_rollups.ts';
import * as viewCounts from './2026_11_28_0036_view_counts.ts';
import * as oidcTrust from './2026_11_29_0101_oidc_trust.ts';
import * as routingInboxTeam from './2026_11_29_0501_routing_inbox_team.ts';
import * as routingFirstMessage from './2026_11_29_0502_routing_first_message.ts';
import * as contactsRemoteImages from './2026_11_29_0801_contacts_remote_images.ts';
import * as oidcSessionFence from './2026_11_29_1001_oidc_session_fence.ts';
import * as auditLog from './2026_11_30_0001_audit_log.ts';
import * as auditLogActorType from './2026_11_30_0400_audit_log_actor_type.ts';
import * as followers from './2026_12_01_0001_followers.ts';
import * as conversationViewers from './2026_12_01_0500_conversation_viewers.ts';
import * as notifications from './2026_12_01_0002_notifications.ts';
import * as push from './2026_12_01_0400_push.ts';
import * as conversationDrafts from './2026_12_01_0600_conversation_drafts.ts';
import * as notificationMailGuard from './2026_12_02_0001_notification_mail_guard.ts';
import * as notificationFanOut from './2026_12_01_0200_notification_fan_out.ts';
import * as sessionList from './2026_11_30_0300_session_list.ts';
import * as passwordTokens from './2026_11_30_0100_password_tokens.ts';
import * as twoFactor from './2026_11_30_0201_two_factor.ts';

export const migrations: Record<string, ParleyMigration> = {
  '2026_11_22_0001_foundation': foundation,
  '2026_11_22_0002_contacts_inboxes': contactsInboxes,
  '2026_11_23_0003_conversations': conversations,
  '2026_11_23_0004_search_reports': searchReports,
  '2026_11_23_0005_jobs': jobs,
  '2026_11_23_0006_list_indexes': listIndexes,
  '2026_11_23_0007_tag_report_window': tagReportWindow,
  '2026_11_23_0008_report_rollups': reportRollups,
  '2026_11_23_0009_agent_role_starts_conversations': agentRoleStartsConversations,
  '2026_11_25_0010_widget_sessions': widgetSessions,
  '2026_11_25_0011_widget': widget,
  '2026_11_25_0012_realtime': realtime,
  '2026_11_25_0013_webhooks': webhooks,
  '2026_11_25_0014_oidc': oidc,
  '2026_11_25_0015_ai': ai,
  '2026_11_25_0017_webhook_dispatch': webhookDispatch,
  '2026_11_26_0018_email': email,
  '2026_11_26_0019_media_content_id': mediaContentId,
  '2026_11_26_0020_email_lookups': emailLookups,
  '2026_11_26_0021_business_hours': businessHours,
  '2026_11_26_0022_sla': sla,
  '2026_11_26_0023_csat': csat,
  '2026_11_26_0024_service_report': serviceReport,
  '2026_11_26_0025_service_report_speed': serviceReportSpeed,
  '2026_11_26_0026_setup_tokens': setupTokens,
  '2026_11_27_0027_search_folding': searchFolding,
  '2026_11_27_0028_service_rollups': serviceRollups,
  '2026_11_27_0029_search_windows': searchWindows,
  '2026_11_27_0030_events_notify_after_commit': eventsNotifyAfterCommit,
  '2026_11_27_0031_search_text_ascii': searchTextAscii,
  '2026_11_27_0032_conversation_counts': conversationCounts,
  '2026_11_28_0033_sla_cycles': slaCycles,
  '2026_11_28_0034_agents_back_from_absence': agentsBackFromAbsence,
  '2026_11_28_0035_service_tag_rollups': serviceTagRollups,
  '2026_11_28_0036_view_counts': viewCounts,
  '2026_11_29_0101_oidc_trust': oidcTrust,
  '2026_11_29_0501_routing_inbox_team': routingInboxTeam,
  '2026_11_29_0502_routing_first_message': routingFirstMessage,
  '2026_11_29_0801_contacts_remote_images': contactsRemoteImages,
  '2026_11_29_1001_oidc_session_fence': oidcSessionFence,
  '2026_11_30_0001_audit_log': auditLog,
  '2026_11_30_0100_password_tokens': passwordTokens,
  '2026_11_30_0201_two_factor': twoFactor,
  '2026_11_30_0300_session_list': sessionList,
  '2026_11_30_0400_audit_log_actor_type': auditLogActorType,
  '2026_12_01_0001_followers': followers,
  '2026_12_01_0002_notifications': notifications,
  '2026_12_01_0200_notification_fan_out': notificationFanOut,
  '2026_12_01_0400_push': push,
  '2026_12_01_0500_conversation_viewers': conversationViewers,
  '2026_12_01_0600_conversation_drafts': conversationDrafts,
  '2026_12_02_0001_notification_mail_guard': notificationMailGuard,
};
