export { live, liveSocketUrl } from './live';
export { useLiveConnection, useLiveMessages } from './useLive';
export { LiveConnectionNotice } from './LiveConnectionNotice';
export {
  IDLE_CLOSE_MS,
  MAX_RECONNECT_DELAY_MS,
  RECONNECT_INTERVAL_MS,
  reconnectDelayMs,
  createLiveClient,
  type LiveClient,
  type LiveHandler,
  type LiveMessage,
  type LiveMessageType,
  type LiveState,
  type LiveStatus,
} from '@fixdesk/client';
