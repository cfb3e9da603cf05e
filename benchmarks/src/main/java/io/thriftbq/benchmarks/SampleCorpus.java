package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.sample.Event;

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

  static double meanSize(byte[][] corpus) {
    long total = 0;
    for (byte[] event : corpus) {
      total += event.length;
    }
    return (double) total / corpus.length;
  }
}
