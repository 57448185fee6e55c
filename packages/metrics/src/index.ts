export { collectProcessMetrics, metrics, registry } from './metrics.js';
export { type SampledQueue, sampleQueues } from './queues.js';
export { type Reader, type Sample, type SampledGauge, sampledGauge } from './sampled.js';
export { type MetricsServer, startMetricsServer } from './server.js';
