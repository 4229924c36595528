import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import path from "node:path";

/** A trace holds the whole conversation: its file is the user's alone. */
export const TRACE_FILE_MODE = 0o600;
/** Links followed at most while finding out whether a name is one of the process's descriptors. */
const MAX_HOPS = 8;

/** A trace file mcpterm will not write to, and why (a sentence). */
export class TraceFileRefused extends Error {}

/**
 * Opens a `--trace` file to append to, refusing (TraceFileRefused) what a cloned repository can
 * bring to turn a script's fixed `--trace` name into a write elsewhere: a symlink (to `~/.bashrc`,
 * to nothing yet, to a folder), a folder on the way that is a link out of the project, a file
 * with other names (a hard link a tarball brought), and a named pipe (opening one waits for a
 * reader, and no signal ends that wait). What the process already has open is written through,
 * whatever it is (`--trace /dev/stderr`, `/dev/fd/3`), as is a link to a terminal or a device.
 */
export function openTraceFile(file: string, cwd: string): number {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
  if (isOpenDescriptor(file)) return openSync(file, flags, TRACE_FILE_MODE);
  const named = lstatOrUndefined(file);
  if (named?.isSymbolicLink()) {
    if (!leadsToDevice(file))
      refuse(
        file,
        "is a symlink; mcpterm does not write a trace through a link a project may have brought — name the file itself",
      );
    return openSync(file, flags, TRACE_FILE_MODE);
  }
  if (named?.isDirectory())
    refuse(file, "is a folder; --trace names a file to write, such as .mcpterm/traces/run.jsonl");
  if (named?.isFIFO())
    refuse(
      file,
      "is a named pipe; a trace is written to a file, a terminal or a descriptor such as /dev/stderr",
    );
  if (leavesProject(file, cwd))
    refuse(
      file,
      "is in a folder that is a link out of the project; name a file whose folders are the project's own",
    );
  const fd = openSync(file, flags | constants.O_NOFOLLOW, TRACE_FILE_MODE);
  const opened = fstatSync(fd);
  if (opened.isFile() && opened.nlink > 1) {
    closeSync(fd);
    refuse(
      file,
      "has other names (hard links); mcpterm does not write a trace into a file that is also somewhere else — name a new file",
    );
  }
  return fd;
}

function refuse(file: string, why: string): never {
  throw new TraceFileRefused(`${file} ${why}`);
}

/**
 * Whether `file` names one of the process's open descriptors: it is, or links (through at most
 * MAX_HOPS links) to, an entry of a `/proc/<pid>/fd` folder, which only the kernel makes.
 */
function isOpenDescriptor(file: string): boolean {
  let current = path.resolve(file);
  for (let hop = 0; hop <= MAX_HOPS; hop += 1) {
    try {
      if (/^\/proc\/(?:self|\d+)\/fd$/.test(realpathSync(path.dirname(current)))) return true;
      if (!lstatSync(current).isSymbolicLink()) return false;
      current = path.resolve(path.dirname(current), readlinkSync(current));
    } catch {
      return false;
    }
  }
  return false;
}

/** Whether a link leads to a terminal or another device (not a file, a folder, a pipe or nothing). */
function leadsToDevice(link: string): boolean {
  try {
    const target = statSync(link);
    return target.isCharacterDevice() || target.isBlockDevice();
  } catch {
    return false;
  }
}

/** Whether a file named inside the project sits in a folder whose real place is outside it. */
function leavesProject(file: string, cwd: string): boolean {
  const project = path.resolve(cwd);
  const named = path.resolve(cwd, file);
  if (!isInside(named, project)) return false;
  try {
    return !isInside(realpathSync(path.dirname(named)), realpathSync(project));
  } catch {
    return false;
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
