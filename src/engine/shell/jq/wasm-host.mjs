import { posix } from "node:path";
import { strptimeInto } from "./strptime.mjs";
/**
 * The host side of jq 1.8 compiled to WebAssembly with Emscripten (the npm package jq-wasm's
 * jq.wasm): the ~30 functions the module imports, written here against the docs shell instead of
 * Emscripten's own JavaScript runtime (issue 25). Why our own: the package's runtime gives one
 * call stdin as a string, no files, Emscripten's made-up environment (USER=web_user...), and
 * trims the output's leading and trailing white space (`jq -r '"  a"'` lost its indent); here
 * jq's FILE operands are bytes read beforehand from the reader's view, its environment is the
 * shell's, and every byte it writes is kept. Nothing here reads the disk or process.env.
 *
 * Plain JavaScript, its types in wasm-host.d.mts: the thread a jq runs in where no shell worker
 * can be ended (`jq-thread.mjs`) loads it without a TypeScript loader; through tsx, a fresh
 * thread's first jq took 72 s at load average 30 and met the call's 60 s backstop.
 *
 * The import and export names are the minified ones of the one jq.wasm we ship (package.json
 * pins jq-wasm exactly); `checkJqModule` refuses a module whose imports differ, and
 * test/shell/jq-wasm.test.ts runs it.
 */
/** Captured when this module loads: just-bash's defence-in-depth hides `WebAssembly` from code a command line runs. */
const Wasm = WebAssembly;
/** The module's imports, in the order `WebAssembly.Module.imports` lists them (module "a"). */
const IMPORTS = "abcdefghijklmnopqrstuvwxyzABCDE";
/** Emscripten's errno values (its musl build), as the syscalls return them. */
const ERRNO = { EBADF: 8, EINVAL: 28, EISDIR: 31, ENOENT: 44, ENOTDIR: 54, ENOTTY: 59, ERANGE: 68, EROFS: 69, ESPIPE: 70 };
/** open(2) flags jq could pass that ask to write; O_DIRECTORY. */
const O_ACCMODE = 3;
const O_CREAT = 64;
const O_DIRECTORY = 65536;
const AT_FDCWD = -100;
/** st_mode bits: a regular file, a directory, a character device (the standard streams). */
const S_IFREG = 0o100444;
const S_IFDIR = 0o040555;
const S_IFCHR = 0o020666;
/** Thrown out of the module when jq calls exit(): unwinds the wasm stack to `runJq`. */
class JqExit {
    code;
    constructor(code) {
        this.code = code;
    }
}
/** Thrown out of the module when jq calls abort() (memory exhausted, a failed assertion). */
class JqAbort {
    why;
    constructor(why) {
        this.why = why;
    }
}
/** Thrown out of fd_write once stdout is past its bound. */
class JqOutputFull {
}
/** Refuse a module that is not the jq.wasm this host was written for (a different jq-wasm build renames its imports). */
export function checkJqModule(module) {
    const names = Wasm.Module.imports(module).map((i) => `${i.module}.${i.name}`);
    const expected = [...IMPORTS].map((c) => `a.${c}`);
    const exports = Wasm.Module.exports(module).map((e) => e.name).join(",");
    if (names.join(",") !== expected.join(",") || exports !== "F,G,H,I,J,K,L") {
        throw new Error(`jq.wasm is not the build this host expects (imports ${names.join(",")}; exports ${exports}): pin jq-wasm to the version in package.json`);
    }
}
/** Compile jq.wasm's bytes (once per thread: the caller keeps the module). */
export function compileJq(bytes) {
    const module = new Wasm.Module(bytes);
    checkJqModule(module);
    return module;
}
/**
 * Run jq once, in a fresh instance of `module` (nothing of one command's memory is left for the
 * next), synchronously. Never throws for anything jq does: exit() is its status, abort() (its
 * memory past `run.maxMemoryBytes`) is 134 with a message, as a process killed by SIGABRT.
 */
export function runJq(module, run) {
    // Set once the instance exists; the imports below only run after that.
    const module_ = { memory: undefined };
    // Views of the module's memory, made again only when it grew (its buffer is then a new one):
    // jq's stdout is line-buffered, so fd_write runs once per output line.
    let viewed;
    let dataView = new DataView(new ArrayBuffer(0));
    let byteView = new Uint8Array(0);
    const refresh = () => {
        const buffer = module_.memory.buffer;
        if (buffer === viewed)
            return;
        viewed = buffer;
        dataView = new DataView(buffer);
        byteView = new Uint8Array(buffer);
    };
    const heap = () => {
        refresh();
        return dataView;
    };
    const bytes = () => {
        refresh();
        return byteView;
    };
    const decoder = new TextDecoder();
    const cString = (ptr) => {
        const b = bytes();
        let end = ptr;
        while (b[end] !== 0)
            end++;
        return decoder.decode(b.subarray(ptr, end));
    };
    const writeCString = (text, ptr, max) => {
        const encoded = new TextEncoder().encode(text);
        const n = Math.min(encoded.length, max - 1);
        bytes().set(encoded.subarray(0, n), ptr);
        bytes()[ptr + n] = 0;
        return n;
    };
    const out = new Chunks();
    const err = new Chunks();
    let outputFull = false;
    const stdinFile = { path: "/dev/stdin", data: run.stdin, position: 0 };
    const fds = new Map([
        [0, stdinFile],
        [1, "stdout"],
        [2, "stderr"],
    ]);
    let nextFd = 3;
    const resolve = (dirfd, path) => {
        if (path.startsWith("/"))
            return posix.normalize(path);
        if (dirfd !== AT_FDCWD) {
            const dir = fds.get(dirfd);
            if (dir === undefined || typeof dir === "string")
                return -ERRNO.EBADF;
            return posix.join(dir.path, path);
        }
        return posix.join(run.cwd, path);
    };
    const lookup = (path) => {
        if (path === "/dev/stdin")
            return run.stdin;
        const data = run.files.get(path);
        if (data !== undefined || path === "/" || path === run.cwd)
            return data ?? "directory";
        // `/guides/`: normalize keeps a trailing slash, the view's names have none. A folder is
        // itself so named (jq: Is a directory, as for `/guides`); a file so named is not a folder.
        if (path.length > 1 && path.endsWith("/")) {
            const bare = path.slice(0, -1);
            const named = run.files.get(bare) ?? (bare === run.cwd ? "directory" : undefined);
            if (named !== undefined)
                return named === "directory" || named === "notdir" ? named : "notdir";
        }
        return undefined;
    };
    const writeStat = (buf, data) => {
        const view = heap();
        bytes().fill(0, buf, buf + 96);
        const mode = data === "directory" ? S_IFDIR : data === "device" ? S_IFCHR : S_IFREG;
        view.setUint32(buf + 4, mode, true);
        view.setUint32(buf + 8, 1, true);
        view.setBigInt64(buf + 24, BigInt(typeof data === "string" ? 0 : data.length), true);
        view.setInt32(buf + 32, 4096, true);
        return 0;
    };
    const statPath = (path, buf) => {
        const data = lookup(path);
        return data === undefined ? -ERRNO.ENOENT : data === "notdir" ? -ERRNO.ENOTDIR : writeStat(buf, data);
    };
    const iovecs = (iov, count) => {
        const view = heap();
        return Array.from({ length: count }, (_, i) => [view.getUint32(iov + i * 8, true), view.getUint32(iov + i * 8 + 4, true)]);
    };
    const imports = {
        // __assert_fail(condition, file, line, function)
        a: (condition) => {
            throw new JqAbort(`assertion failed: ${cString(condition)}`);
        },
        // exit(status)
        b: (code) => {
            throw new JqExit(code);
        },
        // fd_close(fd)
        c: (fd) => (fds.delete(fd) ? 0 : ERRNO.EBADF),
        // fd_write(fd, iov, iovcnt, pnum)
        d: (fd, iov, count, pnum) => {
            const target = fds.get(fd);
            if (target !== "stdout" && target !== "stderr")
                return ERRNO.EBADF;
            const view = heap();
            const memoryBytes = bytes();
            const sink = target === "stderr" && !run.mergeStderr ? err : out;
            let written = 0;
            for (let i = 0; i < count; i++) {
                const ptr = view.getUint32(iov + i * 8, true);
                const len = view.getUint32(iov + i * 8 + 4, true);
                sink.push(memoryBytes.subarray(ptr, ptr + len));
                written += len;
            }
            view.setUint32(pnum, written, true);
            if (out.length > run.maxOutputBytes)
                throw new JqOutputFull();
            return 0;
        },
        // __syscall_fcntl64(fd, cmd, varargs): F_GETFL and F_SETFD/F_GETFD are all jq's stdio asks
        e: (fd) => (fds.has(fd) ? 0 : -ERRNO.EBADF),
        // __syscall_openat(dirfd, path, flags, varargs)
        f: (dirfd, pathPtr, flags) => {
            const path = resolve(dirfd, cString(pathPtr));
            if (typeof path === "number")
                return path;
            const data = lookup(path);
            // The docs shell is read-only: jq never writes a file, and may not.
            if ((flags & O_ACCMODE) !== 0 || (flags & O_CREAT) !== 0)
                return -ERRNO.EROFS;
            if (data === undefined)
                return -ERRNO.ENOENT;
            if (data === "notdir")
                return -ERRNO.ENOTDIR;
            if ((flags & O_DIRECTORY) !== 0 && data !== "directory")
                return -ERRNO.ENOTDIR;
            const fd = nextFd++;
            fds.set(fd, { path, data, position: 0 });
            return fd;
        },
        // emscripten_date_now()
        g: () => Date.now(),
        // fd_read(fd, iov, iovcnt, pnum)
        h: (fd, iov, count, pnum) => {
            const file = fds.get(fd);
            if (file === undefined || typeof file === "string")
                return ERRNO.EBADF;
            if (file.data === "directory")
                return ERRNO.EISDIR;
            let read = 0;
            for (const [ptr, len] of iovecs(iov, count)) {
                const chunk = file.data.subarray(file.position, file.position + len);
                bytes().set(chunk, ptr);
                file.position += chunk.length;
                read += chunk.length;
                if (chunk.length < len)
                    break;
            }
            heap().setUint32(pnum, read, true);
            return 0;
        },
        // __syscall_ioctl(fd, op, varargs): no stream is a terminal
        i: (fd) => (fds.has(fd) ? -ERRNO.ENOTTY : -ERRNO.EBADF),
        // environ_get(environ, buf)
        j: (environ, buf) => {
            let at = buf;
            environStrings(run.env).forEach((entry, i) => {
                heap().setUint32(environ + i * 4, at, true);
                at += writeCString(entry, at, Number.MAX_SAFE_INTEGER) + 1;
            });
            return 0;
        },
        // emscripten_resize_heap(requested): grow within the module's maximum and ours
        k: (requested) => {
            const mem = module_.memory;
            const wanted = requested >>> 0;
            if (wanted > run.maxMemoryBytes)
                return 0;
            const current = mem.buffer.byteLength;
            // Grow by a fifth at least, as Emscripten's runtime does, so that a growing array is not one grow per page.
            const target = Math.min(run.maxMemoryBytes, Math.max(wanted, Math.ceil(current * 1.2)));
            for (const size of [target, wanted]) {
                try {
                    mem.grow(Math.ceil((size - current) / 65536));
                    return 1;
                }
                catch {
                    // past the module's own maximum: try the exact size, then give up (jq reports it)
                }
            }
            return 0;
        },
        // environ_sizes_get(count, bufsize)
        l: (countPtr, sizePtr) => {
            const strings = environStrings(run.env);
            heap().setUint32(countPtr, strings.length, true);
            heap().setUint32(sizePtr, strings.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0), true);
            return 0;
        },
        // __syscall_readlinkat: there are no links
        m: () => -ERRNO.EINVAL,
        // __syscall_getcwd(buf, size)
        n: (buf, size) => {
            const length = Buffer.byteLength(run.cwd) + 1;
            if (size < length)
                return -ERRNO.ERANGE;
            writeCString(run.cwd, buf, size);
            return length;
        },
        // __call_sighandler: jq installs none
        o: () => undefined,
        // proc_exit(code)
        p: (code) => {
            throw new JqExit(code);
        },
        // _emscripten_runtime_keepalive_clear
        q: () => undefined,
        // _gmtime_js(time, tm)
        r: (time, tm) => writeTm(heap(), tm, Number(time)),
        // _localtime_js(time, tm): the shell's time zone is UTC
        s: (time, tm) => writeTm(heap(), tm, Number(time)),
        // _mktime_js(tm): local time is UTC
        t: (tm) => timegm(heap(), tm),
        // _timegm_js(tm)
        u: (tm) => timegm(heap(), tm),
        // _tzset_js(timezone, daylight, std_name, dst_name): UTC, no daylight saving
        v: (timezone, daylight, stdName, dstName) => {
            heap().setUint32(timezone, 0, true);
            heap().setInt32(daylight, 0, true);
            writeCString("UTC", stdName, 17);
            writeCString("UTC", dstName, 17);
        },
        // strptime(buf, format, tm)
        w: (buf, format, tm) => {
            const input = cString(buf);
            const consumed = strptimeInto(input, cString(format), heap(), tm);
            return consumed === undefined ? 0 : buf + Buffer.byteLength(input.slice(0, consumed));
        },
        // fd_seek(fd, offset, whence, newOffset)
        x: (fd, offset, whence, newOffset) => {
            const file = fds.get(fd);
            if (file === undefined)
                return ERRNO.EBADF;
            if (typeof file === "string" || file === stdinFile || file.data === "directory")
                return ERRNO.ESPIPE;
            const base = whence === 0 ? 0 : whence === 1 ? file.position : file.data.length;
            const position = base + Number(offset);
            if (position < 0)
                return ERRNO.EINVAL;
            file.position = position;
            heap().setBigInt64(newOffset, BigInt(position), true);
            return 0;
        },
        // fd_fdstat_get(fd, buf): the standard streams are pipes, not terminals (jq colours none)
        y: (fd, buf) => {
            const file = fds.get(fd);
            if (file === undefined)
                return ERRNO.EBADF;
            bytes().fill(0, buf, buf + 24);
            bytes()[buf] = typeof file !== "string" && file.data === "directory" ? 3 : 4;
            return 0;
        },
        // random_get(buf, size)
        z: (buf, size) => {
            crypto.getRandomValues(bytes().subarray(buf, buf + size));
            return 0;
        },
        // __syscall_lstat64(path, buf)
        A: (pathPtr, buf) => {
            const path = resolve(AT_FDCWD, cString(pathPtr));
            return typeof path === "number" ? path : statPath(path, buf);
        },
        // __syscall_newfstatat(dirfd, path, buf, flags)
        B: (dirfd, pathPtr, buf) => {
            const path = resolve(dirfd, cString(pathPtr));
            return typeof path === "number" ? path : statPath(path, buf);
        },
        // __syscall_stat64(path, buf)
        C: (pathPtr, buf) => {
            const path = resolve(AT_FDCWD, cString(pathPtr));
            return typeof path === "number" ? path : statPath(path, buf);
        },
        // __syscall_fstat64(fd, buf)
        D: (fd, buf) => {
            const file = fds.get(fd);
            if (file === undefined)
                return -ERRNO.EBADF;
            return writeStat(buf, typeof file === "string" ? "device" : file.data);
        },
        // _abort_js(): jq's abort(), as when it cannot allocate memory
        E: () => {
            throw new JqAbort("abort");
        },
    };
    const instance = new Wasm.Instance(module, { a: imports });
    const exports = instance.exports;
    module_.memory = exports.F;
    let exitCode;
    try {
        exports.G();
        exitCode = exports.H(...argv(exports, heap, bytes, ["jq", ...run.args]));
    }
    catch (error) {
        if (error instanceof JqExit)
            exitCode = error.code;
        else if (error instanceof JqOutputFull) {
            outputFull = true;
            exitCode = 2;
        }
        else if (error instanceof JqAbort || error instanceof Wasm.RuntimeError || error instanceof RangeError) {
            // A process killed by SIGABRT exits 128 + 6. Out of memory is the usual cause: jq says so
            // itself ("cannot allocate memory") before it aborts; a stack overflow in the module is a
            // RuntimeError or RangeError.
            const why = error instanceof JqAbort ? error.why : error.message;
            const note = `jq: stopped (${why}): jq may use at most ${run.maxMemoryBytes / 1024 / 1024} MB of memory in the docs shell; narrow the input or the filter\n`;
            (run.mergeStderr ? out : err).push(new TextEncoder().encode(note));
            exitCode = 134;
        }
        else
            throw error;
    }
    return { stdout: out.join(), stderr: err.join(), exitCode, outputFull };
}
/** argc and argv, written on the module's stack. */
function argv(exports, heap, bytes, args) {
    const encoder = new TextEncoder();
    const pointers = args.map((a) => {
        const encoded = encoder.encode(a);
        const ptr = exports.K(encoded.length + 1);
        bytes().set(encoded, ptr);
        bytes()[ptr + encoded.length] = 0;
        return ptr;
    });
    const array = exports.K((pointers.length + 1) * 4);
    pointers.forEach((p, i) => heap().setUint32(array + i * 4, p, true));
    heap().setUint32(array + pointers.length * 4, 0, true);
    return [pointers.length, array];
}
/** `NAME=value` strings of the environment jq sees. */
function environStrings(env) {
    return Object.entries(env).map(([k, v]) => `${k}=${v}`);
}
/** A struct tm for `seconds` since the epoch, UTC (its fields: sec, min, hour, mday, mon, year, wday, yday, isdst, gmtoff). */
function writeTm(view, tm, seconds) {
    const d = new Date(seconds * 1000);
    const fields = [d.getUTCSeconds(), d.getUTCMinutes(), d.getUTCHours(), d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear() - 1900, d.getUTCDay(), dayOfYear(d), 0, 0];
    fields.forEach((v, i) => view.setInt32(tm + i * 4, v, true));
}
function dayOfYear(d) {
    return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000);
}
/** timegm(3): the struct tm's UTC time in seconds (its wday and yday filled in). */
function timegm(view, tm) {
    const f = (i) => view.getInt32(tm + i * 4, true);
    const ms = Date.UTC(f(5) + 1900, f(4), f(3), f(2), f(1), f(0));
    if (Number.isNaN(ms))
        return -1n;
    const d = new Date(ms);
    view.setInt32(tm + 24, d.getUTCDay(), true);
    view.setInt32(tm + 28, dayOfYear(d), true);
    return BigInt(Math.floor(ms / 1000));
}
/** Bytes written to a stream: copied into one buffer that doubles as it fills. */
class Chunks {
    buffer = new Uint8Array(4096);
    length = 0;
    push(chunk) {
        if (this.length + chunk.length > this.buffer.length) {
            const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + chunk.length));
            grown.set(this.buffer.subarray(0, this.length));
            this.buffer = grown;
        }
        this.buffer.set(chunk, this.length);
        this.length += chunk.length;
    }
    join() {
        return this.buffer.slice(0, this.length);
    }
}
