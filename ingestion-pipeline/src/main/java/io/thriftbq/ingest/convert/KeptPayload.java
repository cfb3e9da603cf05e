package io.thriftbq.ingest.convert;

/**
 * An event's Thrift bytes and Pub/Sub metadata, kept beside its row ({@code
 * --keepPayloadForWriteFailures}) so that a row BigQuery rejects is dead-lettered with them.
 */
public record KeptPayload(byte[] payload, EventMetadata metadata) {}
