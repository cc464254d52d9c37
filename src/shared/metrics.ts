// Every Prometheus metric of the service, in one registry per process (tests build their own).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * defaults: the process's own metrics (CPU, memory, event loop); a worker thread's registry leaves them to the main
 * thread's.
 */
export function createMetrics({ defaults = true }: { defaults?: boolean } = {}) {
  const registry = new Registry()
  if (defaults) collectDefaultMetrics({ register: registry, prefix: 'sluice_' })
  return {
    registry,
    httpRequests: new Counter({
      name: 'sluice_http_requests_total',
      help: 'HTTP requests by route, method and status code',
      labelNames: ['route', 'method', 'status_code'] as const,
      registers: [registry],
    }),
    httpErrors: new Counter({
      name: 'sluice_http_errors_total',
      help: 'Requests answered with an error, by route (template, or unmatched), error code and, for a size or count limit, its name',
      labelNames: ['route', 'code', 'limit'] as const,
      registers: [registry],
    }),
    scimAuthFailures: new Counter({
      name: 'sluice_scim_auth_failures_total',
      help: 'SCIM calls refused at authentication, by reason (the caller only sees 401 or 403)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    eventsAccepted: new Counter({
      name: 'sluice_events_accepted_total',
      help: 'Event records accepted by the edge (acknowledged by Kafka or written to the spool)',
      registers: [registry],
    }),
    eventsRejected: new Counter({
      name: 'sluice_events_rejected_total',
      help: 'Event records that failed validation and went to event_rejections',
      registers: [registry],
    }),
    eventsInserted: new Counter({
      name: 'sluice_events_inserted_total',
      help: 'Event rows inserted into ClickHouse',
      registers: [registry],
    }),
    rowsInserted: new Counter({
      name: 'sluice_clickhouse_rows_inserted_total',
      help: 'Rows the consumers inserted into ClickHouse, by table (rejection tables included)',
      labelNames: ['table'] as const,
      registers: [registry],
    }),
    sdkRecordsAccepted: new Counter({
      name: 'sluice_sdk_records_accepted_total',
      help: 'Records of the SDK data routes other than events accepted by the edge, by kind (impressions, impression_counts, unique_keys, telemetry)',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    sdkTelemetry: new Counter({
      name: 'sluice_sdk_telemetry_total',
      help: 'SDK telemetry posts accepted, by SDK language (from SplitSDKVersion) and impressions mode',
      labelNames: ['sdk', 'mode'] as const,
      registers: [registry],
    }),
    spooling: new Gauge({
      name: 'sluice_spooling',
      help: '1 while the edge writes requests to its disk spool (Kafka slow or down, or the spool not yet drained)',
      registers: [registry],
    }),
    spoolBytes: new Gauge({
      name: 'sluice_spool_bytes',
      help: 'Bytes held in the edge spool (its limit is SLUICE_SPOOL_MAX_BYTES)',
      registers: [registry],
    }),
    spoolMessages: new Gauge({
      name: 'sluice_spool_messages',
      help: 'Kafka messages held in the edge spool',
      registers: [registry],
    }),
    spoolOldest: new Gauge({
      name: 'sluice_spool_oldest_timestamp_seconds',
      help: 'When the oldest spooled entry was written (0 when empty); its age is time() minus this',
      registers: [registry],
    }),
    spoolAppended: new Counter({
      name: 'sluice_spool_appended_messages_total',
      help: 'Kafka messages written to the edge spool',
      registers: [registry],
    }),
    spoolDrained: new Counter({
      name: 'sluice_spool_drained_messages_total',
      help: 'Spooled messages published to Kafka and deleted from the spool (its rate is the drain rate)',
      registers: [registry],
    }),
    spoolRefused: new Counter({
      name: 'sluice_spool_refused_messages_total',
      help: 'Spooled messages Kafka refused as data (too large, corrupt), set aside in <spool dir>.refused/ (expected to stay 0)',
      registers: [registry],
    }),
    spoolDrainedBytes: new Counter({
      name: 'sluice_spool_drained_bytes_total',
      help: 'Spool bytes published to Kafka and deleted',
      registers: [registry],
    }),
    replaysSkipped: new Counter({
      name: 'sluice_replays_skipped_total',
      help: 'Messages replayed from an edge spool that consumers skipped because their first copy was stored',
      labelNames: ['topic'] as const,
      registers: [registry],
    }),
    publishSeconds: new Histogram({
      name: 'sluice_kafka_publish_seconds',
      help: 'Time from a request being parsed to Kafka acknowledging all its messages',
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    consumerLag: new Gauge({
      name: 'sluice_consumer_lag_messages',
      help: "Messages between the group's committed offset and the high watermark, polled from Kafka (true even while a consumer is stuck)",
      labelNames: ['topic', 'partition'] as const,
      registers: [registry],
    }),
    consumerStalled: new Gauge({
      name: 'sluice_consumer_stalled',
      help: '1 while this process holds a partition with lag and has made no progress on it for SLUICE_CONSUMER_STALL_SECONDS',
      labelNames: ['group'] as const,
      registers: [registry],
    }),
    consumerRestarts: new Counter({
      name: 'sluice_consumer_restarts_total',
      help: 'Consumers replaced after the client library gave up on them (evicted member, broker outage)',
      labelNames: ['group'] as const,
      registers: [registry],
    }),
    freshnessSeconds: new Histogram({
      name: 'sluice_freshness_seconds',
      help: 'The freshness canary: time from Kafka acknowledging a canary event (the edge answers 202 then) to the event being queryable in ClickHouse',
      buckets: [0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60],
      registers: [registry],
    }),
    freshnessUnseenAge: new Gauge({
      name: 'sluice_freshness_unseen_age_seconds',
      help: 'How long the oldest freshness canary not yet queryable in ClickHouse has waited since it was accepted (0: every canary is)',
      registers: [registry],
    }),
    insertBatchRows: new Histogram({
      name: 'sluice_clickhouse_insert_rows',
      help: 'Rows per ClickHouse insert',
      buckets: [1, 10, 100, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000],
      registers: [registry],
    }),
    insertSeconds: new Histogram({
      name: 'sluice_clickhouse_insert_seconds',
      help: 'Latency of ClickHouse inserts',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    webhooksAccepted: new Counter({
      name: 'sluice_webhooks_accepted_total',
      help: 'Webhook requests accepted (acknowledged by Kafka)',
      registers: [registry],
    }),
    webhookAuthFailures: new Counter({
      name: 'sluice_webhook_auth_failures_total',
      help: "Webhook requests refused (401) by their integration's sender authentication, by reason",
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    webhookRateLimited: new Counter({
      name: 'sluice_webhooks_rate_limited_total',
      help: 'Webhook requests refused by the per-address rate limit',
      registers: [registry],
    }),
    alertsStored: new Counter({
      name: 'sluice_alerts_stored_total',
      help: 'Normalized alerts written to the Redis streams',
      registers: [registry],
    }),
    alertsRejected: new Counter({
      name: 'sluice_alerts_rejected_total',
      help: 'Alerts that failed rendering or validation and went to the rejections stream',
      registers: [registry],
    }),
    alertDedupFallbacks: new Counter({
      name: 'sluice_alert_dedup_fallbacks_total',
      help: "Alerts whose dedup key rendered empty, so a hash of their rendered fields keyed the incident (see the integration's lifecycleCounts)",
      registers: [registry],
    }),
    alertUnknownStatuses: new Counter({
      name: 'sluice_alert_unknown_statuses_total',
      help: 'Alerts whose status neither the statusMap nor the synonyms know, taken as firing',
      registers: [registry],
    }),
    alertsDropped: new Counter({
      name: 'sluice_alerts_dropped_total',
      help: "Alerts an alert rule dropped (each kept a day in the account's dropped-alerts record)",
      registers: [registry],
    }),
    alertsSuppressed: new Counter({
      name: 'sluice_alerts_suppressed_total',
      help: 'Firing alerts that arrived in a maintenance window (stored as suppressed, not told)',
      registers: [registry],
    }),
    alertsOverBudget: new Counter({
      name: 'sluice_alerts_over_budget_total',
      help: "Alerts the account's rules and windows were not applied to: they went over the payload's budget (SLUICE_ALERT_RULES_BUDGET_MS)",
      registers: [registry],
    }),
    notificationMessages: new Counter({
      name: 'sluice_notification_messages_total',
      help: 'Notification messages sent (one may be a digest of many alert events), by destination kind and result (delivered, retry, give-up)',
      labelNames: ['kind', 'result'] as const,
      registers: [registry],
    }),
    notificationsDelivered: new Counter({
      name: 'sluice_notifications_delivered_total',
      help: 'Deliveries (alert event, destination) delivered, by destination kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    notificationsDead: new Counter({
      name: 'sluice_notifications_dead_total',
      help: 'Deliveries given up into the dead letter (refused by the receiver, or failing past the give-up time), by destination kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    notificationLatency: new Histogram({
      name: 'sluice_notification_latency_seconds',
      help: 'From an alert event stored to its notification accepted by the receiver (reminders left out)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    escalationLateness: new Histogram({
      name: 'sluice_escalation_step_lateness_seconds',
      help: 'Escalation steps fired, by how long after they were due',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    alertsReleased: new Counter({
      name: 'sluice_alerts_released_total',
      help: 'Suppressed alerts released as triggered when their maintenance window ended or was deleted',
      registers: [registry],
    }),
    alertsAutoResolved: new Counter({
      name: 'sluice_alerts_auto_resolved_total',
      help: "Firing alerts resolved by the auto-resolve job after their integration's silence",
      registers: [registry],
    }),
    sinkErrors: new Counter({
      name: 'sluice_sink_errors_total',
      help: 'Failed sink calls by sink (clickhouse, redis) and kind: retriable (waited out), data (the rows were isolated and rejected) or refused (a statement the sink refuses: the partition holds its batch, see /readyz)',
      labelNames: ['sink', 'kind'] as const,
      registers: [registry],
    }),
    unstorable: new Counter({
      name: 'sluice_unstorable_total',
      help: 'Rejections the sink refused even after their raw copy was replaced (logged with their source position); expected to stay 0',
      labelNames: ['sink'] as const,
      registers: [registry],
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>
