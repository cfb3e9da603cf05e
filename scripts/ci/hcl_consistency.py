#!/usr/bin/env python3
"""Consistency checks over the Terraform configuration, offline (no provider needed).

terraform validate/plan cannot run without the Google provider, which is not obtainable offline;
these checks catch the mistakes they would have caught in our own wiring:

* every variable of the root and of each module is declared with a type and a description, and
  is used; every var.X used is declared;
* every output has a description; every module.M.X the root reads is an output of M;
* every module call passes each required input of the module and nothing it does not declare;
* every Terraform output the scripts read (tf_output NAME) exists;
* terraform.tfvars.example sets only declared variables, and every required one;
* the name-prefix rule is the same in Terraform and in scripts/lib (validate.sh);
* security rules: no firewall open to 0.0.0.0/0, no SSH rule, no project metadata, no primitive
  roles, and the only project-level grants are roles/dataflow.worker and, only when the Kafka
  route is on, roles/managedkafka.client (the provider has no narrower Managed Kafka IAM resource);
* the Kafka route: Pub/Sub and Kafka modules are each created for their event_source only, the
  cluster is published in the workers' subnetwork, the topic is replicated 3 times, and the
  outputs the scripts read for --source kafka exist;
* the schema files are BigQuery JSON schemas, and the dead-letter schema has the agreed columns;
* many event types: the event_tables map's attributes are the ones main.tf reads, the bigquery
  module gets every attribute its struct_tables input declares, and the table naming rule
  (events_<struct>) is the same in Terraform's locals, its event_table_spec_template output and
  the launch scripts, which read that output;
* change mode: event_table_primary_key and event_table_max_staleness reach the bigquery module,
  event_tables entries default to them, both event table resources declare the key (a dynamic
  table_constraints, only when non-empty) and max_staleness, and the dead-letter table neither.

Prints one line per failure and exits 1 if there is any.
"""

import json
import re
import sys
from pathlib import Path

import hcl2

ROOT = Path(__file__).resolve().parents[2]
TF = ROOT / "terraform"
SCRIPTS = ROOT / "scripts"

failures = []
checks = 0


def script_library():
    """Every file of scripts/lib (common.sh sources the rest), as one text."""
    return "\n".join(f.read_text() for f in sorted((SCRIPTS / "lib").glob("*.sh")))


def check(ok, message):
    global checks
    checks += 1
    if not ok:
        failures.append(message)


def unquote(v):
    """python-hcl2 8 keeps the quotes of block labels and string literals."""
    if isinstance(v, str) and len(v) >= 2 and v[0] == v[-1] == '"':
        return v[1:-1]
    return v


def unwrap(v):
    """Older python-hcl2 versions wrap attribute values in one-element lists."""
    while isinstance(v, list) and len(v) == 1:
        v = v[0]
    if isinstance(v, list):
        return [unquote(x) for x in v]
    return unquote(v)


def blocks(parsed, kind):
    """Yield (name, body) of the blocks of one kind (variable, output, module) in a parsed file."""
    for entry in parsed.get(kind, []):
        for name, body in entry.items():
            yield unquote(name), {unquote(k): v for k, v in body.items()}


def resources(parsed):
    for entry in parsed.get("resource", []):
        for rtype, named in entry.items():
            for name, body in named.items():
                yield unquote(rtype), unquote(name), body


def load_dir(directory):
    files = sorted(directory.glob("*.tf"))
    parsed = {}
    for f in files:
        with f.open() as fh:
            parsed[f] = hcl2.load(fh)
    text = "\n".join(f.read_text() for f in files)
    return parsed, text


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)(#|//).*$", "", line) for line in text.splitlines())


def module_interface(directory):
    parsed, text = load_dir(directory)
    variables, outputs = {}, {}
    for f, p in parsed.items():
        for name, body in blocks(p, "variable"):
            variables[name] = body
        for name, body in blocks(p, "output"):
            outputs[name] = body
    return parsed, strip_comments(text), variables, outputs


def check_module(directory, label):
    parsed, text, variables, outputs = module_interface(directory)
    check(variables or label != "root", f"{label}: no variables found")
    for name, body in variables.items():
        check(unwrap(body.get("description")), f"{label}: variable {name} has no description")
        check(body.get("type") is not None, f"{label}: variable {name} has no type")
        uses = len(re.findall(rf"\bvar\.{re.escape(name)}\b", text))
        # Uses inside the variable's own validation block do not count as use.
        own = 0
        m = re.search(rf'variable\s+"{re.escape(name)}"\s*\{{(.*?)\n\}}', text, flags=re.S)
        if m:
            own = len(re.findall(rf"\bvar\.{re.escape(name)}\b", m.group(1)))
        check(uses - own > 0, f"{label}: variable {name} is declared but never used")
    for used in sorted(set(re.findall(r"\bvar\.([A-Za-z_][A-Za-z0-9_-]*)", text))):
        check(used in variables, f"{label}: var.{used} is used but not declared")
    for name, body in outputs.items():
        check(unwrap(body.get("description")), f"{label}: output {name} has no description")
    return parsed, text, variables, outputs


def main():
    root_parsed, root_text, root_vars, root_outputs = check_module(TF, "root")

    # Module calls: inputs match the module's variables; outputs read exist.
    modules = {}
    for f, p in root_parsed.items():
        for name, body in blocks(p, "module"):
            modules[name] = body
    check(modules, "root: no module calls found")
    meta_args = {"source", "depends_on", "providers", "count", "for_each", "version"}
    for name, body in modules.items():
        source = unwrap(body.get("source"))
        directory = (TF / source).resolve()
        check(directory.is_dir(), f"module {name}: source {source} is not a directory")
        if not directory.is_dir():
            continue
        _, _, mvars, mouts = check_module(directory, f"module {name}")
        passed = {unquote(k) for k in body if unquote(k) not in meta_args and not k.startswith("__")}
        for k in sorted(passed - set(mvars)):
            check(False, f"module {name}: passes {k}, which the module does not declare")
        for k, v in sorted(mvars.items()):
            if "default" not in v:
                check(k in passed, f"module {name}: required input {k} is not passed")
        for used in sorted(set(re.findall(rf"\bmodule\.{re.escape(name)}(?:\[\d+\])?\.([A-Za-z_][A-Za-z0-9_]*)", root_text))):
            check(used in mouts, f"root reads module.{name}.{used}, which is not an output of the module")
    for used in sorted(set(re.findall(r"\bmodule\.([A-Za-z_][A-Za-z0-9_]*)(?:\[\d+\])?\.", root_text))):
        check(used in modules, f"root reads module.{used}, which is not called")

    # Outputs the scripts read.
    script_text = ""
    for f in sorted(SCRIPTS.rglob("*.sh")):
        if "test" in f.relative_to(SCRIPTS).parts:
            continue
        script_text += f.read_text()
    read = set(re.findall(r"tf_output\s+([a-z_]+)", script_text))
    read.discard("NAME")
    check(read, "scripts: no tf_output call found")
    for name in sorted(read):
        check(name in root_outputs, f"scripts read terraform output {name}, which terraform/outputs.tf does not declare")

    # Example tfvars.
    example = TF / "terraform.tfvars.example"
    check(example.is_file(), "terraform/terraform.tfvars.example is missing")
    if example.is_file():
        with example.open() as fh:
            values = hcl2.load(fh)
        values = {unquote(k): v for k, v in values.items()}
        for k in sorted(k for k in values if not k.startswith("__")):
            check(k in root_vars, f"terraform.tfvars.example sets {k}, which is not a variable")
        for k, v in sorted(root_vars.items()):
            if "default" not in v:
                check(k in values, f"terraform.tfvars.example lacks the required variable {k}")

    # The prefix rule is the same on both sides.
    prefix_rule = "^[a-z]([a-z0-9]|-[a-z0-9]){2,19}$"
    check(prefix_rule in (TF / "variables.tf").read_text(), "variables.tf: name_prefix rule changed; update scripts/lib/validate.sh too")
    check(prefix_rule in script_library(), "scripts/lib: validate_prefix rule differs from terraform name_prefix")

    # Security rules over every resource.
    all_dirs = [TF] + [d for d in sorted((TF / "modules").iterdir()) if d.is_dir()]
    project_roles = []
    for d in all_dirs:
        parsed, _ = load_dir(d)
        for f, p in parsed.items():
            for rtype, name, body in resources(p):
                where = f"{f.relative_to(ROOT)}: {rtype}.{name}"
                check(rtype not in ("google_compute_project_metadata", "google_compute_project_metadata_item"),
                      f"{where}: project-wide metadata must not be managed")
                if rtype == "google_compute_firewall":
                    ranges = unwrap(body.get("source_ranges")) or []
                    ranges = ranges if isinstance(ranges, list) else [ranges]
                    check("0.0.0.0/0" not in ranges, f"{where}: open to 0.0.0.0/0")
                    allows = body.get("allow", [])
                    allows = allows if isinstance(allows, list) else [allows]
                    for a in allows:
                        ports = unwrap(a.get("ports")) or []
                        ports = ports if isinstance(ports, list) else [ports]
                        check("22" not in ports, f"{where}: opens SSH")
                role = unwrap(body.get("role"))
                if isinstance(role, str):
                    check(role not in ("roles/owner", "roles/editor", "roles/viewer"), f"{where}: primitive role {role}")
                if rtype.startswith("google_project_iam"):
                    project_roles.append(role)
                    if role == "roles/managedkafka.client":
                        check(unwrap(body.get("count")) == "${var.kafka_client ? 1 : 0}",
                              f"{where}: roles/managedkafka.client must be granted only with the Kafka route (count on var.kafka_client)")
    check(sorted(project_roles) == ["roles/dataflow.worker", "roles/managedkafka.client"],
          f"project-level roles must be exactly roles/dataflow.worker and roles/managedkafka.client, found {project_roles}")

    # The Kafka route.
    check("event_source" in root_vars, "variables.tf: variable event_source (pubsub or kafka) is missing")
    for name, want in (("pubsub", "${local.pubsub ? 1 : 0}"), ("kafka", "${local.kafka ? 1 : 0}")):
        got = unwrap(modules.get(name, {}).get("count"))
        check(got == want, f"module {name}: count should be {want}, got {got}")
    kafka_parsed, _ = load_dir(TF / "modules" / "kafka")
    kafka_resources = {(r, n): b for p in kafka_parsed.values() for r, n, b in resources(p)}
    cluster = kafka_resources.get(("google_managed_kafka_cluster", "this"), {})
    topic = kafka_resources.get(("google_managed_kafka_topic", "events"), {})
    check(cluster, "modules/kafka: google_managed_kafka_cluster.this is missing")
    check(topic, "modules/kafka: google_managed_kafka_topic.events is missing")
    check(unwrap(topic.get("replication_factor")) == 3, "modules/kafka: the event topic's replication_factor should be 3")
    check("subnetwork_id = module.network.subnetwork_id" in re.sub(r"\s+", " ", root_text),
          "main.tf: the Kafka cluster should be published in the workers' subnetwork (module.network.subnetwork_id)")
    for name in ("kafka_bootstrap_servers", "kafka_topic", "kafka_consumer_group"):
        check(name in root_outputs, f"outputs.tf: output {name} (read by the scripts with --source kafka) is missing")

    # Many event types: the attributes of the map variable, the local that feeds the module, and
    # the module's input agree; the table naming rule is written once and the scripts read it.
    main_text = strip_comments((TF / "main.tf").read_text())
    vars_text = strip_comments((TF / "variables.tf").read_text())
    check("event_tables" in root_vars, "variables.tf: variable event_tables (one table per struct) is missing")
    if "event_tables" in root_vars:
        declared = set(re.findall(r"(\w+)\s*=", str(unwrap(root_vars["event_tables"].get("type")))))
        check({"schema_file", "table_id"} <= declared, f"event_tables: type should have schema_file and table_id, has {sorted(declared)}")
        check("map(object(" in str(unwrap(root_vars["event_tables"].get("type"))).replace(" ", ""), "event_tables: should be map(object(...))")
        read_attrs = set()
        for text in (main_text, vars_text):
            for loop_var in set(re.findall(r"for\s+\w+\s*,\s*(\w+)\s+in\s+var\.event_tables\b", text)):
                read_attrs |= set(re.findall(rf"\b{loop_var}\.(\w+)", text))
        check(read_attrs, "main.tf: nothing reads var.event_tables")
        for attr in sorted(read_attrs - declared):
            check(False, f"terraform reads event_tables attribute {attr}, which its type does not declare")
        for attr in sorted(declared - read_attrs):
            check(False, f"event_tables declares attribute {attr}, which terraform never reads")
    _, bq_text, bq_vars, _ = module_interface(TF / "modules" / "bigquery")
    if "struct_tables" in bq_vars:
        declared = set(re.findall(r"(\w+)\s*=", str(unwrap(bq_vars["struct_tables"].get("type")))))
        m = re.search(r"struct_tables\s*=\s*\{\s*for[^{]*\{(.*?)\n\s*\}\n\s*\}", main_text, flags=re.S)
        built = set(re.findall(r"^\s*(\w+)\s*=", m.group(1), flags=re.M)) if m else set()
        check(built == declared, f"local.struct_tables builds {sorted(built)}, the bigquery module's struct_tables declares {sorted(declared)}")
        used = set(re.findall(r"each\.value\.(\w+)", bq_text))
        for attr in sorted(declared - used):
            check(False, f"bigquery module: struct_tables attribute {attr} is never used")
    else:
        check(False, "bigquery module: input struct_tables (one table per struct) is missing")
    prefix = re.search(r'event_table_prefix\s*=\s*"([^"]+)"', main_text)
    check(prefix and prefix.group(1) == "events_", "main.tf: local.event_table_prefix should be events_ (tables events_<struct>)")
    template = unwrap(root_outputs.get("event_table_spec_template", {}).get("value"))
    check(isinstance(template, str) and template.endswith("${local.event_table_prefix}{struct}"),
          f"output event_table_spec_template should end with ${{local.event_table_prefix}}{{struct}}, got {template}")
    check("tf_output event_table_spec_template" in script_library(),
          "scripts/lib: a many-types launch should default --outputTable to tf_output event_table_spec_template")
    check(re.search(r"^\s*table_args\s*$", (SCRIPTS / "flex-template-run.sh").read_text(), flags=re.M),
          "scripts/flex-template-run.sh: should take its tables from table_args (scripts/lib/common.sh)")

    # Change mode (the job's --primaryKey, --maxStaleness): the root variables reach the bigquery
    # module, each event_tables entry defaults to them, the event tables declare the key (only
    # when there is one) and the staleness, and the dead-letter table never does: the launch
    # refuses an existing table whose key differs from --primaryKey.
    for name in ("event_table_primary_key", "event_table_max_staleness"):
        check(name in root_vars, f"variables.tf: variable {name} (change mode) is missing")
    for arg, var in (("primary_key", "event_table_primary_key"), ("max_staleness", "event_table_max_staleness")):
        got = unwrap(modules.get("bigquery", {}).get(arg))
        check(got == f"${{var.{var}}}", f"module bigquery: {arg} should be var.{var}, got {got}")
        check(re.search(rf"\b{arg}\s*=\s*t\.{arg}\s*!=\s*null\s*\?\s*t\.{arg}\s*:\s*var\.{var}\b", main_text),
              f"main.tf: local.struct_tables {arg} should default to var.{var}")
    bq_parsed, _ = load_dir(TF / "modules" / "bigquery")
    bq_resources = {(r, n): b for p in bq_parsed.values() for r, n, b in resources(p)}
    for name, source in (("events", "var"), ("by_struct", "each.value")):
        body = bq_resources.get(("google_bigquery_table", name), {})
        check(unwrap(body.get("max_staleness")) == f"${{{source}.max_staleness}}",
              f"modules/bigquery: google_bigquery_table.{name} should set max_staleness = {source}.max_staleness")
        dynamics = {}
        for d in body.get("dynamic", []) or []:
            for label, block in d.items():
                dynamics[unquote(label)] = block
        constraints = dynamics.get("table_constraints", {})
        check(unwrap(constraints.get("for_each")) == f"${{length({source}.primary_key) > 0 ? [{source}.primary_key] : []}}",
              f"modules/bigquery: google_bigquery_table.{name} should have a dynamic table_constraints on {source}.primary_key, only when non-empty")
        content = unwrap(constraints.get("content")) or {}
        primary = unwrap(content.get("primary_key")) if isinstance(content, dict) else None
        check(isinstance(primary, dict) and unwrap(primary.get("columns")) == "${table_constraints.value}",
              f"modules/bigquery: google_bigquery_table.{name}'s table_constraints should set primary_key.columns")
    dead = bq_resources.get(("google_bigquery_table", "dead_letter"), {})
    check(dead and "max_staleness" not in dead and "table_constraints" not in dead
          and not any("table_constraints" in {unquote(k) for k in d} for d in dead.get("dynamic", []) or []),
          "modules/bigquery: the dead-letter table must stay append-only (no primary key, no max_staleness)")
    # One literal format on both sides: what SchemaExporter writes (ChangeFlags.interval) is what
    # the validations accept.
    interval_rule = "^[0-9]+-[0-9]+ [0-9]+ [0-9]+:[0-9]+:[0-9]+$"
    for f in (TF / "variables.tf", TF / "modules" / "bigquery" / "variables.tf"):
        text = f.read_text()
        check(text.count(interval_rule) >= 1, f"{f.relative_to(ROOT)}: max_staleness rule changed; keep it the INTERVAL literal SchemaExporter writes")
        check("16" in text, f"{f.relative_to(ROOT)}: the 16-column primary key limit is not checked")

    # Schema files.
    for schema in ("event_table.json", "dead_letter_table.json"):
        path = TF / "schemas" / schema
        check(path.is_file(), f"terraform/schemas/{schema} is missing (scripts/export-schema.sh writes it)")
        if not path.is_file():
            continue
        try:
            fields = json.loads(path.read_text())
        except ValueError as e:
            check(False, f"{schema}: not JSON: {e}")
            continue
        check(isinstance(fields, list) and fields, f"{schema}: not a non-empty JSON array")
        for field in fields if isinstance(fields, list) else []:
            check(isinstance(field, dict) and field.get("name") and field.get("type"), f"{schema}: field without name or type: {field}")
        if schema == "dead_letter_table.json" and isinstance(fields, list):
            got = {f.get("name"): (f.get("type"), f.get("mode", "NULLABLE")) for f in fields if isinstance(f, dict)}
            expected = {
                "payload": "BYTES", "payload_format": "STRING", "stage": "STRING",
                "error_message": "STRING", "message_id": "STRING", "publish_time": "TIMESTAMP",
                "attributes": "RECORD", "failed_at": "TIMESTAMP", "event_table": "STRING",
            }
            for col, typ in expected.items():
                check(col in got and got[col][0] == typ, f"dead_letter_table.json: column {col} should be {typ}, got {got.get(col)}")
            check(got.get("attributes", (None, None))[1] == "REPEATED", "dead_letter_table.json: attributes should be REPEATED")
            # One dead-letter table for all structs: the pipeline adds the struct column; until the
            # checked-in file is regenerated from it, the column may be absent, but not different.
            check("struct" not in got or got["struct"] == ("STRING", "NULLABLE"),
                  f"dead_letter_table.json: column struct should be STRING NULLABLE, got {got.get('struct')}")
            check("failed_at" in got, "dead_letter_table.json: failed_at partitions the table")

    for f in failures:
        print(f"FAIL: {f}")
    print(f"hcl consistency: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
