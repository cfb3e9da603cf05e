package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.sample.Event;
import java.util.Collection;
import org.apache.avro.generic.GenericRecord;

/**
 * The fixed benchmark corpus: {@value #SIZE} sample events from the data generator with its default
 * options and a fixed seed, so every run measures the same bytes.
 */
final class SampleCorpus {
  static final int SIZE = 10_000;
  static final long SEED = 20261122L;

  private SampleCorpus() {}

  static byte[][] serializedSampleEvents(ThriftProtocol protocol) {
    GeneratorConfig config =
        GeneratorConfig.builder()
            .className(Event.class.getName())
            .seed(SEED)
            .protocol(protocol)
            .build();
    RandomEventGenerator generator = new RandomEventGenerator(config);
    byte[][] corpus = new byte[SIZE][];
    for (int i = 0; i < SIZE; i++) {
      corpus[i] = generator.serialize(i);
    }
    return corpus;
  }

  /**
   * Mean number of scalar values (leaves) per row, counting list elements one by one: the Storage
   * API converters' cost grows with it more than with bytes.
   */
  static double meanScalarValues(GenericRecord[] rows) {
    long total = 0;
    for (GenericRecord row : rows) {
      total += scalarValues(row);
    }
    return (double) total / rows.length;
  }

  private static long scalarValues(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof GenericRecord record) {
      long count = 0;
      for (int i = 0; i < record.getSchema().getFields().size(); i++) {
        count += scalarValues(record.get(i));
      }
      return count;
    }
    if (value instanceof Collection<?> collection) {
      long count = 0;
      for (Object item : collection) {
        count += scalarValues(item);
      }
      return count;
    }
    return 1;
  }

  static double meanSize(byte[][] corpus) {
    long total = 0;
    for (byte[] event : corpus) {
      total += event.length;
    }
    return (double) total / corpus.length;
  }
}
