package io.thriftbq.ingest.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * Coder of {@link ToTable}: the table index, then the element with that table's coder. The tables
 * of one write may need different element coders (an Avro record's coder holds its struct's
 * schema), so one coder per table, chosen by the index.
 *
 * @param <E> the element type
 */
public final class ToTableCoder<E> extends StructuredCoder<ToTable<E>> {
  private static final Coder<Integer> INDEX = VarIntCoder.of();

  private final List<Coder<E>> elementCoders;

  private ToTableCoder(List<Coder<E>> elementCoders) {
    if (elementCoders.isEmpty()) {
      throw new IllegalArgumentException("a write to tables needs at least one table");
    }
    this.elementCoders = List.copyOf(elementCoders);
  }

  /**
   * @param elementCoders the element coder of each table, by index
   */
  public static <E> ToTableCoder<E> of(List<Coder<E>> elementCoders) {
    return new ToTableCoder<>(elementCoders);
  }

  @Override
  public void encode(ToTable<E> value, OutputStream out) throws IOException {
    INDEX.encode(value.table(), out);
    coderOf(value.table()).encode(value.element(), out);
  }

  @Override
  public ToTable<E> decode(InputStream in) throws IOException {
    int table = INDEX.decode(in);
    return new ToTable<>(table, coderOf(table).decode(in));
  }

  private Coder<E> coderOf(int table) throws CoderException {
    if (table < 0 || table >= elementCoders.size()) {
      throw new CoderException(
          "table index " + table + " is not one of the " + elementCoders.size() + " tables");
    }
    return elementCoders.get(table);
  }

  @Override
  public List<? extends Coder<?>> getCoderArguments() {
    return elementCoders;
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    for (Coder<E> coder : elementCoders) {
      verifyDeterministic(this, "every table's element coder must be deterministic", coder);
    }
  }
}
