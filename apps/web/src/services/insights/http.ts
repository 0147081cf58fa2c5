import { api } from '../api/http';
import { createInsightsApi } from './insightsApi';

/** The browser's Insights API over the app's one HTTP client. */
export const insightsApi = createInsightsApi(api);
