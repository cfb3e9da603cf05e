include "not_there.thrift"

struct UsesMissing {
  1: optional not_there.Thing thing,
}
