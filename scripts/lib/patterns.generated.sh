# shellcheck shell=bash
# shellcheck disable=SC2034 # read by scripts/lib/validate.sh
#
# GENERATED from the Java constants named above each line by
# io.thriftbq.ingest.template.ScriptPatterns: do not edit; change the constant and
# run scripts/generate-docs.sh (ScriptPatternsTest fails while this file differs).
# Match the patterns with matches_pattern (scripts/lib/validate.sh), which reads them
# as Java does.

# ParameterPatterns.IDL_TYPE
THRIFT_STRUCT_REGEX='^[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$'

# ParameterPatterns.IDL_TYPES
THRIFT_STRUCTS_REGEX='^[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?(:[0-9.]+)?( *, *[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?(:[0-9.]+)?)*$'

# ParameterPatterns.TABLE_FOR_STRUCT_ENTRY
TABLE_FOR_STRUCT_ENTRY_REGEX='^[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?=[^,=]+\.[^,=.]+$'

# PubsubNames.RESERVED_ATTRIBUTE_PREFIX
PUBSUB_RESERVED_ATTRIBUTE_PREFIX='goog'

# PubsubNames.MAX_ATTRIBUTE_KEY_BYTES
PUBSUB_MAX_ATTRIBUTE_KEY_BYTES=256
