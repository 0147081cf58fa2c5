import { api } from '../api/http';
import { createAuditApi } from './auditApi';

/** The browser's audit API over the app's one HTTP client. */
export const auditApi = createAuditApi(api);
