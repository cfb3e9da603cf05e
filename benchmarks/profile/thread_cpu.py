"""Samples the CPU of every thread of one process about once a second, until it exits.

Writes lines "epochMillis<TAB>tid<TAB>threadName<TAB>utime+stime in clock ticks", read by
JfrComponents.java. Usage: python3 thread_cpu.py PID OUT_TSV
"""
import os
import sys
import time

pid, out_path = sys.argv[1], sys.argv[2]
task_dir = f"/proc/{pid}/task"
with open(out_path, "w") as out:
    while os.path.isdir(task_dir):
        now = int(time.time() * 1000)
        lines = []
        try:
            tids = os.listdir(task_dir)
        except FileNotFoundError:
            break
        for tid in tids:
            try:
                with open(f"{task_dir}/{tid}/stat") as f:
                    stat = f.read()
                with open(f"{task_dir}/{tid}/comm") as f:
                    name = f.read().strip().replace("\t", " ")
            except (FileNotFoundError, ProcessLookupError):
                continue
            fields = stat.rsplit(")", 1)[1].split()
            # After the command: state is field 3 of stat, so utime (14) and stime (15) are
            # at offsets 11 and 12 here.
            lines.append(f"{now}\t{tid}\t{name}\t{int(fields[11]) + int(fields[12])}\n")
        out.writelines(lines)
        out.flush()
        time.sleep(1.0)
