package io.thriftbq.local.source;

import java.util.Map;

/** One message as a local run publishes it, whatever the source: the payload and its attributes. */
public record SourceMessage(byte[] data, Map<String, String> attributes) {}
