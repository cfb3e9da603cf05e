package io.thriftbq.local.source;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.route.UnroutableException;
import io.thriftbq.local.source.MalformedMessages.Kind;
import io.thriftbq.local.source.MalformedMessages.Malformed;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Malformed messages for a run of many event types. Damaged events keep their struct (the attribute
 * naming it, or the union around the damaged member), so they fail to decode as that struct and
 * their dead letter names it; the layout's own routing failures (ROUTE) join them.
 */
final class ManyTypesMalformed {
  static final String UNKNOWN_STRUCT_NAME = "NoSuchStruct";

  private final EventMix mix;
  private final ThriftProtocol protocol;
  private final EventTypes types;
  private final boolean union;

  ManyTypesMalformed(EventMix mix, ThriftProtocol protocol) {
    this.mix = mix;
    this.protocol = protocol;
    this.types = mix.eventTypes();
    this.union = types.layout() == EventTypes.Layout.UNION;
  }

  /**
   * The kinds of this layout, in the order they cycle: routing failures interleaved with the
   * damaged events, so that even a handful of malformed messages holds both.
   */
  List<Kind> kinds() {
    List<Kind> routing = new ArrayList<>();
    if (union) {
      routing.add(Kind.EMPTY_UNION);
      if (nonStructMember() != null) {
        routing.add(Kind.NON_STRUCT_MEMBER);
      }
      routing.add(Kind.UNKNOWN_MEMBER);
    } else {
      routing.add(Kind.MISSING_STRUCT);
      routing.add(Kind.UNKNOWN_STRUCT);
    }
    List<Kind> kinds = new ArrayList<>();
    for (int i = 0; i < Math.max(Kind.COMMON.size(), routing.size()); i++) {
      if (i < Kind.COMMON.size()) {
        kinds.add(Kind.COMMON.get(i));
      }
      if (i < routing.size()) {
        kinds.add(routing.get(i));
      }
    }
    return kinds;
  }

  List<Malformed> create(int count, long seed) {
    List<Malformed> common = MalformedMessages.createCommon(count, seed, mix::serialize, kinds());
    List<Malformed> out = new ArrayList<>(count);
    for (int i = 0; i < common.size(); i++) {
      out.add(union ? inUnion(common.get(i), i) : byAttribute(common.get(i), i));
    }
    return out;
  }

  private Malformed byAttribute(Malformed bad, int i) {
    long sequence = 1_000_000_000L + i;
    int type = mix.chooseType(sequence);
    Map<String, String> attributes = new LinkedHashMap<>(bad.message().attributes());
    byte[] payload = bad.message().data();
    String struct = null;
    switch (bad.kind()) {
      case MISSING_STRUCT -> payload = mix.serialize(sequence);
      case UNKNOWN_STRUCT -> {
        payload = mix.serialize(sequence);
        attributes.put(mix.attribute(), UNKNOWN_STRUCT_NAME);
      }
      case CORRUPT_ENVELOPE -> attributes.put(mix.attribute(), mix.name(type));
      default -> {
        attributes.put(mix.attribute(), mix.name(type));
        struct = mix.name(type);
      }
    }
    Stage stage = bad.kind().expectedStage();
    return new Malformed(
        bad.id(), bad.kind(), new SourceMessage(payload, attributes), stage, struct);
  }

  private Malformed inUnion(Malformed bad, int i) {
    long sequence = 1_000_000_000L + i;
    int type = mix.chooseType(sequence);
    byte[] payload = bad.message().data();
    Stage stage = bad.kind().expectedStage();
    String struct = null;
    switch (bad.kind()) {
      case RANDOM_BYTES -> stage = Stage.ROUTE; // 0x7f is no member's wire type
      case TRUNCATED, CORRUPTED -> {
        byte[] whole = mix.generator(type).serialize(sequence);
        byte[] member = member(whole);
        byte[] header = Arrays.copyOf(whole, whole.length - 1 - member.length);
        byte[] damaged =
            bad.kind() == Kind.TRUNCATED
                ? MalformedMessages.truncated(member)
                : MalformedMessages.corrupted(member);
        payload = concat(header, damaged, new byte[] {TType.STOP});
        struct = mix.name(type);
      }
      case EMPTY_UNION -> payload = new byte[] {TType.STOP};
      case UNKNOWN_MEMBER -> payload = unionWith(TType.STRUCT, unknownMemberId());
      case NON_STRUCT_MEMBER -> {
        ThriftField field = nonStructMember();
        payload = unionWith(field.type().wireType(), field.id());
      }
      default -> {}
    }
    return new Malformed(
        bad.id(),
        bad.kind(),
        new SourceMessage(payload, bad.message().attributes()),
        stage,
        struct);
  }

  /** The member's bytes of a generated union, as the ingestion pipeline's router splits them. */
  private byte[] member(byte[] union) {
    try {
      EventRouter router = EventRouter.of(types, protocol);
      router.route(union, Map.of());
      return router.eventBytes(union);
    } catch (UnroutableException e) {
      throw new IllegalStateException("a generated union does not route: " + e.getMessage(), e);
    }
  }

  private @Nullable ThriftField nonStructMember() {
    ThriftStruct u = types.union();
    if (u == null) {
      return null;
    }
    return u.fields().stream()
        .filter(f -> !(f.type() instanceof ThriftType.StructRef))
        .findFirst()
        .orElse(null);
  }

  private short unknownMemberId() {
    int max = 0;
    for (ThriftField f : types.union().fields()) {
      max = Math.max(max, f.id());
    }
    return (short) Math.min(Short.MAX_VALUE, max + 100);
  }

  /** A union whose one member has field id {@code id} and wire type {@code wireType}. */
  private byte[] unionWith(byte wireType, short id) {
    try {
      TMemoryBuffer buffer = new TMemoryBuffer(64);
      TProtocol out = protocol.newWriter(buffer);
      out.writeStructBegin(new TStruct("u"));
      out.writeFieldBegin(new TField("m", wireType, id));
      switch (wireType) {
        case TType.STRING -> out.writeString("not an event");
        case TType.I64 -> out.writeI64(1);
        case TType.I32 -> out.writeI32(1);
        case TType.BOOL -> out.writeBool(true);
        default -> {
          out.writeStructBegin(new TStruct("m"));
          out.writeFieldStop();
          out.writeStructEnd();
        }
      }
      out.writeFieldEnd();
      out.writeFieldStop();
      out.writeStructEnd();
      return Arrays.copyOf(buffer.getArray(), buffer.length());
    } catch (TException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
