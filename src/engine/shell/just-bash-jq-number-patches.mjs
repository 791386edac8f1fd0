// Exact-text corrections to just-bash 3.4.2's jq (its prebuilt bundle): the text of a number as
// jq 1.6 writes it (issue 25). Kept apart from just-bash-patches.mjs (which spreads these in)
// because they form one concept: jq's number text. The same rules as there: each `find` occurs
// exactly once in just-bash's dist/bundle.

/**
 * JQ_NUMBER: Qnum(x) is jq 1.6's text of the double x (jv_dump_term's jvp_dtoa_fmt): the
 * shortest digits that read back as x (JS's toExponential gives the same digits), written plain
 * while the decimal point is from -3 to 15 places past the digits, else in exponent form with at
 * least two exponent digits (1e+17, 1e-05, 1.5e+300); -0 is -0, nan null, and an infinity the
 * largest double (1.7976931348623157e+308), as jq 1.6 prints them. just-bash wrote String(x):
 * 100000000000000000000, 1e-7, 0 for -0 and null for 1e1000. From 1e-4 to 1e16 both write the same
 * shortest digits without an exponent, so String(x) is taken there (most numbers, and cheap).
 */
export const JQ_NUMBER = String.raw`function Qnum(x){if(x!==x)return"null";if(!Number.isFinite(x))return x>0?"1.7976931348623157e+308":"-1.7976931348623157e+308";if(x===0)return Object.is(x,-0)?"-0":"0";let a=Math.abs(x);if(a>=1e-4&&a<1e16)return String(x);let m=/^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential()),g=m[1],d=m[2]+(m[3]??""),p=Number(m[4])+1,n=d.length;if(p<=-4||p>n+15){let v=p-1;return g+d[0]+(n>1?"."+d.slice(1):"")+"e"+(v<0?"-":"+")+(Math.abs(v)<10?"0":"")+Math.abs(v)}if(p<=0)return g+"0."+"0".repeat(-p)+d;if(p>=n)return g+d+"0".repeat(p-n);return g+d.slice(0,p)+"."+d.slice(p)}`;

/** One correction each: the exact minified text, what replaces it, and why. */
export const JQ_NUMBER_PATCHES = [
  {
    why: "jq writes a number as jq 1.6 does (JQ_NUMBER): 1e20 is 1e+20, 1e-7 1e-07, -0 -0, 1e1000 1.7976931348623157e+308 (just-bash: 100000000000000000000, 1e-7, 0, null)",
    find: String.raw`if(typeof n=="number"){e.append(Number.isFinite(n)?String(n):"null");return}`,
    replace: String.raw`if(typeof n=="number"){e.append(Qnum(n));return}`,
  },
];
