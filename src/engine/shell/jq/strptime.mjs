/**
 * strptime(3) for jq's `strptime` and `fromdate` (jq.wasm imports it from its host): glibc's
 * conversions, each read into a struct tm in the module's memory. The fields the input names are
 * set and the others kept as jq zeroed them; the week day and the day of the year are computed
 * from the date, as glibc does, so `"2015-03-05T23:51:47Z" | strptime("%Y-%m-%dT%H:%M:%SZ")`
 * is `[2015,2,5,23,51,47,4,63]` as with jq on Linux. Plain JavaScript, as wasm-host.mjs is.
 */
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
/** Conversions that stand for others (glibc's recursive ones). */
const COMPOUND = { T: "%H:%M:%S", D: "%m/%d/%y", F: "%Y-%m-%d", R: "%H:%M", r: "%I:%M:%S %p", c: "%a %b %e %H:%M:%S %Y", x: "%m/%d/%y", X: "%H:%M:%S", h: "%b" };
/** Numeric conversions: the struct tm field (index), digits at most, range, and what the value read becomes. */
const NUMERIC = {
    Y: [5, 4, 0, 9999],
    m: [4, 2, 1, 12],
    d: [3, 2, 1, 31],
    e: [3, 2, 1, 31],
    H: [2, 2, 0, 23],
    k: [2, 2, 0, 23],
    M: [1, 2, 0, 59],
    S: [0, 2, 0, 61],
    j: [7, 3, 1, 366],
    y: ["year2", 2, 0, 99],
    C: ["century", 2, 0, 99],
    I: ["hour12", 2, 1, 12],
    l: ["hour12", 2, 1, 12],
    s: ["epoch", 20, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    U: [-1, 2, 0, 53],
    W: [-1, 2, 0, 53],
    V: [-1, 2, 0, 53],
    G: [-1, 4, 0, 9999],
    g: [-1, 2, 0, 99],
    u: [-1, 1, 1, 7],
    w: [6, 1, 0, 6],
};
/** Parse `input` by `format` into the struct tm at `tm`; the number of characters read, or undefined when it does not match. */
export function strptimeInto(input, format, view, tm) {
    const get = (i) => view.getInt32(tm + i * 4, true);
    const set = (i, v) => view.setInt32(tm + i * 4, v, true);
    let fmt = format;
    for (let changed = true; changed;) {
        changed = false;
        fmt = fmt.replace(/%([TDFRrcxXh])/g, (_, c) => {
            changed = true;
            return COMPOUND[c];
        });
    }
    let pos = 0;
    let year2;
    let century;
    let pm;
    let hour12;
    let haveDate = false;
    let haveYday = false;
    const skipSpace = () => {
        while (pos < input.length && /\s/.test(input[pos]))
            pos++;
    };
    for (let i = 0; i < fmt.length; i++) {
        const f = fmt[i];
        if (/\s/.test(f)) {
            skipSpace();
            continue;
        }
        if (f !== "%") {
            if (input[pos] !== f)
                return undefined;
            pos++;
            continue;
        }
        let c = fmt[++i];
        if (c === "E" || c === "O")
            c = fmt[++i];
        if (c === undefined)
            return undefined;
        if (c === "%") {
            if (input[pos] !== "%")
                return undefined;
            pos++;
            continue;
        }
        if (c === "n" || c === "t") {
            skipSpace();
            continue;
        }
        if (c === "a" || c === "A" || c === "b" || c === "B") {
            const names = c === "a" || c === "A" ? DAYS : MONTHS;
            const rest = input.slice(pos).toLowerCase();
            const found = names.findIndex((n) => rest.startsWith(n)) >= 0 ? names.findIndex((n) => rest.startsWith(n)) : names.findIndex((n) => rest.startsWith(n.slice(0, 3)));
            if (found < 0)
                return undefined;
            const name = names[found];
            pos += rest.startsWith(name) ? name.length : 3;
            if (names === DAYS)
                set(6, found);
            else {
                set(4, found);
                haveDate = true;
            }
            continue;
        }
        if (c === "p" || c === "P") {
            const m = /^(am|pm|a\.m\.|p\.m\.)/i.exec(input.slice(pos));
            if (m === null)
                return undefined;
            pm = m[1].toLowerCase().startsWith("p");
            pos += m[1].length;
            continue;
        }
        if (c === "Z") {
            // glibc reads a time zone's name and sets nothing
            while (pos < input.length && /[A-Za-z]/.test(input[pos]))
                pos++;
            continue;
        }
        if (c === "z") {
            skipSpace();
            if (input[pos] === "Z") {
                pos++;
                set(9, 0);
                continue;
            }
            const m = /^([+-])(\d\d)(?::?(\d\d))?/.exec(input.slice(pos));
            if (m === null)
                return undefined;
            const seconds = (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60;
            set(9, m[1] === "-" ? -seconds : seconds);
            pos += m[0].length;
            continue;
        }
        const numeric = NUMERIC[c];
        if (numeric === undefined)
            return undefined;
        const [field, digits, min, max] = numeric;
        skipSpace();
        const m = (field === "epoch" ? /^-?\d+/ : new RegExp(`^[+-]?\\d{1,${digits}}`)).exec(input.slice(pos));
        if (m === null)
            return undefined;
        const value = Number(m[0]);
        if (value < min || value > max)
            return undefined;
        pos += m[0].length;
        if (field === "year2")
            year2 = value;
        else if (field === "century")
            century = value;
        else if (field === "hour12")
            hour12 = value;
        else if (field === "epoch") {
            const d = new Date(value * 1000);
            [d.getUTCSeconds(), d.getUTCMinutes(), d.getUTCHours(), d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear() - 1900].forEach((v, k) => set(k, v));
            haveDate = true;
        }
        else if (field === 5) {
            set(5, value - 1900);
            haveDate = true;
        }
        else if (field === 4) {
            set(4, value - 1);
            haveDate = true;
        }
        else if (field === 7) {
            set(7, value - 1);
            haveYday = true;
        }
        else if (field >= 0) {
            set(field, value);
            if (field === 3)
                haveDate = true;
        }
    }
    if (year2 !== undefined) {
        set(5, (century !== undefined ? century * 100 + year2 : year2 < 69 ? 2000 + year2 : 1900 + year2) - 1900);
        haveDate = true;
    }
    else if (century !== undefined) {
        set(5, century * 100 - 1900);
        haveDate = true;
    }
    if (hour12 !== undefined)
        set(2, (hour12 % 12) + (pm === true ? 12 : 0));
    else if (pm === true && get(2) < 12)
        set(2, get(2) + 12);
    if (haveDate) {
        const d = new Date(Date.UTC(get(5) + 1900, get(4), Math.max(1, get(3))));
        set(6, d.getUTCDay());
        if (!haveYday)
            set(7, Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000));
    }
    return pos;
}
