package io.thriftbq.ingest.udf;

import java.io.Serializable;
import org.apache.thrift.TBase;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A user function applied to every decoded event before it is converted to a row; name the class
 * with {@code --udfClassName}.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>The class needs a public no-argument constructor. It is instantiated once per DoFn instance
 *       (not per element), so expensive set-up belongs in the constructor. Instances are used by
 *       one thread at a time; they need not be thread-safe.
 *   <li>Return the event to write: the same instance changed in place (cheapest), or a new one. It
 *       must be an instance of the {@code --thriftClassName} class; anything else is a dead letter
 *       with stage TRANSFORM.
 *   <li>Return {@code null} to filter the event out. Filtered events are counted in the {@code
 *       filtered} metric, not dead-lettered, so {@code events_read = rows_to_bigquery +
 *       dead-lettered + filtered} still holds.
 *   <li>Throw to reject the event: it becomes a dead letter with stage TRANSFORM, carrying the
 *       original bytes and the exception's class and message.
 * </ul>
 *
 * <p>With a user function the pipeline decodes each event into its Thrift object and converts the
 * object afterwards, instead of decoding straight into the row format; expect that path to cost
 * roughly twice as much CPU per event.
 */
@FunctionalInterface
public interface EventTransform extends Serializable {

  /**
   * Transforms one event.
   *
   * @return the event to write, or null to filter it out
   * @throws Exception to dead-letter the event
   */
  @Nullable TBase<?, ?> apply(TBase<?, ?> event) throws Exception;
}
