/** The audit log's texts live in @pfp/i18n: the server's export formats it the same way (issue 30). */
export { auditActionLabel, auditDetails, auditKindLabel, type AuditNames } from '@pfp/i18n';
