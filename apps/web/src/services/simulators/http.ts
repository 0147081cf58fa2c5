import { api } from '../api/http';
import { createSimulatorApi } from '@fixdesk/client';

/** The browser's simulator calls over the app's one HTTP client. */
export const simulatorApi = createSimulatorApi(api);
