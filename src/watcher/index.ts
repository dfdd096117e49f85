export { DeliveryQueue } from './delivery-queue.js';
export type { DeliveryJob, DeliveryQueueOptions } from './delivery-queue.js';
export { IncidentStore, defaultStateDir } from './incident-store.js';
export { parseListen, serveMetrics } from './metrics-server.js';
export {
  alertmanagerReceiver,
  hookReceiver,
  parseReceiverUrl,
  slackReceiver,
  splitCommand,
  webhookReceiver,
} from './receivers.js';
export type { Receiver } from './receivers.js';
export { Watcher } from './watcher.js';
export type { WatcherOptions } from './watcher.js';
