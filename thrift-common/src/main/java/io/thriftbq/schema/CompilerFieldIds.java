package io.thriftbq.schema;

import com.microsoft.thrifty.schema.Field;
import com.microsoft.thrifty.schema.Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ids the Apache Thrift compiler gives a struct's fields, for fields written without one too.
 *
 * <p>Why: an IDL may leave out a field's id (older IDLs often do). The compiler accepts it with a
 * warning and numbers such fields -1, -2, ... in the order they are declared, and generated code
 * writes those ids on the wire. thrifty, which reads IDLs at launch, numbers them after the field
 * before instead (1, 2, ...), so an IDL read at launch would look for fields that events never
 * carry: rows of NULLs, or dead letters for a required field "missing". Whether a field's id was
 * written is read from the IDL's text at the field's location: a declaration that starts with an
 * integer and a colon has one.
 */
final class CompilerFieldIds {
  private static final Pattern EXPLICIT_ID =
      Pattern.compile("[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)\\s*:");

  private final Map<Path, IdlText> texts = new HashMap<>();

  /** The compiler's id of each of {@code fields}, in their order. */
  int[] of(List<Field> fields) {
    int[] ids = new int[fields.size()];
    int nextImplicit = -1;
    for (int i = 0; i < fields.size(); i++) {
      Field field = fields.get(i);
      ids[i] = hasExplicitId(field) ? field.getId() : nextImplicit--;
    }
    return ids;
  }

  private boolean hasExplicitId(Field field) {
    Location location = field.getLocation();
    IdlText text = texts.computeIfAbsent(location.getAsPath().normalize(), IdlText::read);
    int offset = text.offsetOf(location.getLine(), location.getColumn());
    if (offset >= 0) {
      Matcher matcher = EXPLICIT_ID.matcher(text.content());
      if (matcher.region(offset, text.content().length()).lookingAt()) {
        return true;
      }
      // Without an id a declaration starts with its requiredness or its type: a name.
      if (Character.isJavaIdentifierStart(text.content().codePointAt(offset))) {
        return false;
      }
    }
    throw new IllegalStateException(
        "Cannot tell whether field "
            + field.getName()
            + " ("
            + location.getPath()
            + ":"
            + location.getLine()
            + ":"
            + location.getColumn()
            + ") is written with an id: the IDL's text there is not a field's start");
  }

  /** An IDL file's text, with where each line starts. */
  private record IdlText(String content, int[] lineStarts) {
    static IdlText read(Path file) {
      try {
        String content = Files.readString(file, StandardCharsets.UTF_8);
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < content.length(); i++) {
          if (content.charAt(i) == '\n') {
            starts.add(i + 1);
          }
        }
        return new IdlText(content, starts.stream().mapToInt(Integer::intValue).toArray());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file + " again to find its field ids", e);
      }
    }

    /**
     * The offset of a 1-based line and column (thrifty's, which counts code points, so a character
     * outside the BMP earlier on the line is one column), or -1 outside the text.
     */
    int offsetOf(int line, int column) {
      if (line < 1 || line > lineStarts.length || column < 1) {
        return -1;
      }
      int lineEnd = line < lineStarts.length ? lineStarts[line] : content.length();
      int start = lineStarts[line - 1];
      if (content.codePointCount(start, lineEnd) < column) {
        return -1;
      }
      return content.offsetByCodePoints(start, column - 1);
    }
  }
}
