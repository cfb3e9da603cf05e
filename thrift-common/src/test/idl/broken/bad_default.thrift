struct BadDefault {
  1: optional i32 count = "many",
}
