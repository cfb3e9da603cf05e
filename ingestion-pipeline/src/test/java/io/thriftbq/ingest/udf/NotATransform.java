package io.thriftbq.ingest.udf;

/** Names a class that exists but does not implement EventTransform. */
public class NotATransform {}
