import { api } from '../api/http';
import { createOrdersApi } from './ordersApi';

/** The browser's orders API over the app's one HTTP client. */
export const ordersApi = createOrdersApi(api);
