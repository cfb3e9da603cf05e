"""The BigQuery emulator's lock file: writes it, and checks that a venv holds exactly its pins.

  python bigquery_emulator_lock.py write REPORT.json LOCK   the lock from a `pip install --dry-run
                                                          --report` of the frozen set
  python bigquery_emulator_lock.py check LOCK [FREEZE]      exit 1, naming the differences, unless
                                                          the running interpreter's packages (or
                                                          the `pip freeze` output in FREEZE) are
                                                          exactly the lock's pins

Run `check` with the venv's own python. pip itself (and setuptools/wheel, which a venv may
bring) are not locked and ignored.
"""

import json
import re
import sys

UNLOCKED = {"pip", "setuptools", "wheel"}


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins(path):
    """name -> version of every requirement line (NAME==VERSION at the start of a line)."""
    pins = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", line)
            if m:
                pins[normalize(m.group(1))] = m.group(2)
            elif line.strip() and not line.lstrip().startswith(("#", "--hash=")):
                raise SystemExit(f"{path}: not a NAME==VERSION pin: {line.rstrip()}")
    return pins


def installed_pins(freeze_path=None):
    if freeze_path is None:
        from importlib import metadata

        pairs = [(d.metadata["Name"], d.version) for d in metadata.distributions()]
    else:
        with open(freeze_path, encoding="utf-8") as f:
            pairs = [tuple(l.strip().split("==", 1)) for l in f if "==" in l]
    return {normalize(n): v for n, v in pairs if normalize(n) not in UNLOCKED}


def check(lock_path, freeze_path=None):
    locked = lock_pins(lock_path)
    installed = installed_pins(freeze_path)
    problems = []
    for name in sorted(locked.keys() | installed.keys()):
        want, have = locked.get(name), installed.get(name)
        if want is None:
            problems.append(f"  {name}=={have} is installed but not in the lock")
        elif have is None:
            problems.append(f"  {name}=={want} is in the lock but not installed")
        elif want != have:
            problems.append(f"  {name}: lock {want}, installed {have}")
    if problems:
        print(f"The installed packages are not the lock {lock_path}:", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"Installed packages match the lock ({len(locked)} pins)")
    return 0


HEADER = """\
# The BigQuery emulator's venv (.local-stack/venv-bq), every package pinned with the sha256 of the
# file pip installs on linux x86_64, CPython 3.13. GENERATED: do not edit; change
# scripts/local/bigquery-emulator.requirements.in and run
#   scripts/local/update-bigquery-emulator-lock.sh
# scripts/local/install-bigquery-emulator.sh installs it with
#   pip install --require-hashes --no-deps -r scripts/local/bigquery-emulator.lock.txt
# (--no-deps: local-bigquery's duckdb>=2.0.0 pin is overridden on purpose, see the .in file).
"""


def write(report_path, lock_path, header=HEADER):
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    entries = []
    for item in report["install"]:
        name, version = item["metadata"]["name"], item["metadata"]["version"]
        hashes = item["download_info"].get("archive_info", {}).get("hashes", {})
        if "sha256" not in hashes:
            raise SystemExit(f"no sha256 for {name}=={version} in {report_path}")
        entries.append((normalize(name), version, hashes["sha256"], item["download_info"]["url"]))
    with open(lock_path, "w", encoding="utf-8") as out:
        out.write(header)
        for name, version, sha, url in sorted(entries):
            out.write(f"{name}=={version} \\\n    --hash=sha256:{sha}\n")
            out.write(f"    # {url.rsplit('/', 1)[-1]}\n")
    print(f"Wrote {lock_path} ({len(entries)} pins)")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
        sys.exit(0)
    print(__doc__, file=sys.stderr)
    sys.exit(2)
