package io.thriftbq.ingest.route;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Tells which of a job's event types a message holds, before anything is decoded: by the attribute
 * that names the struct ({@link EventTypes.Layout#ATTRIBUTE}), or by the member of the union that
 * wraps every type ({@link EventTypes.Layout#UNION}, read from the member's field header alone; the
 * member's bytes are then decoded as that struct). A message it cannot place is a ROUTE dead letter
 * whose reason names the structs the job takes. Small and serializable; not thread-safe in use (one
 * per DoFn instance is what the decoder keeps): where the routed event lies is kept in the router
 * ({@link #eventOffset}, {@link #eventLength}) rather than in an object per message.
 */
public final class EventRouter implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final byte STOP = 0;
  private static final byte BINARY_STRUCT = 12;
  private static final byte COMPACT_STRUCT = 12;

  private final EventTypes.Layout layout;
  private final @Nullable String attribute;
  private final Map<String, Integer> typeByName;
  private final String allowed;
  private final boolean compact;

  /** Union members by field id: the type index, or -1 for a member the job does not ingest. */
  private final Map<Short, Integer> typeByMemberId;

  private final Map<Short, String> memberNames;
  private final String unionName;

  private transient int eventOffset;
  private transient int eventLength;

  private EventRouter(EventTypes types, ThriftProtocol protocol) {
    this.layout = types.layout();
    this.attribute = types.attribute();
    this.allowed = types.allowedNames();
    this.compact = protocol == ThriftProtocol.COMPACT;
    this.typeByName = new HashMap<>();
    List<EventTypes.EventType> list = types.types();
    for (int i = 0; i < list.size(); i++) {
      typeByName.put(list.get(i).name(), i);
      typeByName.putIfAbsent(list.get(i).qualifiedName(), i);
    }
    this.typeByMemberId = new HashMap<>();
    this.memberNames = new HashMap<>();
    ThriftStruct union = types.union();
    this.unionName = union == null ? "" : union.name();
    if (union != null) {
      Map<String, Integer> typeByStruct = new HashMap<>();
      for (int i = 0; i < list.size(); i++) {
        typeByStruct.put(list.get(i).qualifiedName(), i);
      }
      // Every member whose struct is a type goes to it, also a second member of the same struct.
      for (ThriftField field : union.fields()) {
        memberNames.put(field.id(), describe(field));
        Integer type =
            field.type() instanceof ThriftType.StructRef ref
                ? typeByStruct.get(ref.struct().qualifiedName())
                : null;
        typeByMemberId.put(field.id(), type == null ? -1 : type);
      }
    }
  }

  /** The router of {@code types}, whose payloads use {@code protocol}. */
  public static EventRouter of(EventTypes types, ThriftProtocol protocol) {
    return new EventRouter(Objects.requireNonNull(types, "types"), protocol);
  }

  /** Whether there is anything to route (more than one way a message can go). */
  public boolean routes() {
    return layout != EventTypes.Layout.SINGLE;
  }

  /**
   * The index of the type {@code payload} holds; its event is then the {@link #eventLength} bytes
   * at {@link #eventOffset} of {@code payload} (the whole message, or a union's member inside it,
   * not copied), until the next call.
   *
   * @param attributes the message's attributes (a header map on other sources)
   * @throws UnroutableException with the reason for the dead letter
   */
  public int route(byte[] payload, Map<String, String> attributes) throws UnroutableException {
    eventOffset = 0;
    eventLength = payload == null ? 0 : payload.length;
    return switch (layout) {
      case SINGLE -> 0;
      case ATTRIBUTE -> byAttribute(attributes);
      case UNION -> byUnionMember(payload);
    };
  }

  /** Where the last routed message's event starts in it. */
  public int eventOffset() {
    return eventOffset;
  }

  /** How long the last routed message's event is. */
  public int eventLength() {
    return eventLength;
  }

  /** The last routed event's bytes as an array of their own (a copy for a union member). */
  public byte[] eventBytes(byte[] payload) {
    return eventOffset == 0 && eventLength == payload.length
        ? payload
        : Arrays.copyOfRange(payload, eventOffset, eventOffset + eventLength);
  }

  private int byAttribute(Map<String, String> attributes) throws UnroutableException {
    String name = attributes.get(attribute);
    if (name == null) {
      throw new UnroutableException(
          "The message has no attribute "
              + attribute
              + " naming its struct; this job takes "
              + allowed);
    }
    Integer type = typeByName.get(name.trim());
    if (type == null) {
      throw new UnroutableException(
          "Attribute "
              + attribute
              + "="
              + abbreviate(name)
              + " names no struct this job takes; it takes "
              + allowed);
    }
    return type;
  }

  /**
   * The member's field header, read without decoding the member: BINARY writes type, then the id as
   * two bytes; COMPACT writes the id's delta (from 0) and the type in one byte, or the type and
   * then the id as a zigzag varint. The member's bytes follow and the union's field stop ends it.
   */
  private int byUnionMember(byte[] payload) throws UnroutableException {
    if (payload == null || payload.length == 0) {
      throw new UnroutableException("Empty payload: the message carries no " + unionName);
    }
    byte type;
    int id;
    int start;
    if (compact) {
      int header = payload[0] & 0xff;
      type = (byte) (header & 0x0f);
      int delta = header >>> 4;
      if (type == STOP) {
        throw noMember();
      }
      if (delta != 0) {
        id = delta;
        start = 1;
      } else {
        long varint = 0;
        int shift = 0;
        int pos = 1;
        while (true) {
          if (pos >= payload.length || shift > 28) {
            throw new UnroutableException(
                "The " + unionName + " ends inside its member's field header");
          }
          int b = payload[pos++] & 0xff;
          varint |= (long) (b & 0x7f) << shift;
          if ((b & 0x80) == 0) {
            break;
          }
          shift += 7;
        }
        id = (int) ((varint >>> 1) ^ -(varint & 1));
        start = pos;
      }
    } else {
      type = payload[0];
      if (type == STOP) {
        throw noMember();
      }
      if (payload.length < 3) {
        throw new UnroutableException(
            "The " + unionName + " ends inside its member's field header");
      }
      id = (short) (((payload[1] & 0xff) << 8) | (payload[2] & 0xff));
      start = 3;
    }
    Integer index = id == (short) id ? typeByMemberId.get((short) id) : null;
    if (index == null) {
      throw new UnroutableException(
          "The "
              + unionName
              + " holds member "
              + id
              + ", which the IDL does not know; this job takes "
              + allowed);
    }
    if (index < 0) {
      throw new UnroutableException(
          "The "
              + unionName
              + " holds member "
              + memberNames.get((short) id)
              + ", which is not a struct this job takes; it takes "
              + allowed);
    }
    if (type != (compact ? COMPACT_STRUCT : BINARY_STRUCT)) {
      throw new UnroutableException(
          "The "
              + unionName
              + " holds member "
              + memberNames.get((short) id)
              + " with wire type "
              + type
              + " instead of a struct: the payload is not a "
              + unionName
              + " of this IDL");
    }
    int end = payload.length - 1;
    if (end <= start || payload[end] != STOP) {
      throw new UnroutableException(
          "The "
              + unionName
              + " does not end with a field stop after its member: the payload is not one "
              + unionName);
    }
    eventOffset = start;
    eventLength = end - start;
    return index;
  }

  private UnroutableException noMember() {
    return new UnroutableException(
        "The " + unionName + " holds no member; this job takes " + allowed);
  }

  private static String describe(ThriftField field) {
    ThriftType fieldType = field.type();
    String type;
    if (fieldType instanceof ThriftType.StructRef ref) {
      type = ref.struct().name();
    } else if (fieldType instanceof ThriftType.Primitive primitive) {
      type = primitive.kind().name().toLowerCase(java.util.Locale.ROOT);
    } else if (fieldType instanceof ThriftType.EnumRef ref) {
      type = ref.enumType().name();
    } else {
      type = "container";
    }
    return field.id() + " (" + field.name() + ": " + type + ")";
  }

  private static String abbreviate(String value) {
    return value.length() <= 100 ? value : value.substring(0, 97) + "...";
  }
}
