// float_text.mjs: the inspector's side of tests/json/test_float_text.py. Takes formatReal (and
// what it calls) out of generator/templates/inspector.js (argv[2]) and prints each value of
// the corpus on stdin ("f32 <hex bits>" / "f64 <hex bits>", one a line) as the page shows it.
import { readFileSync } from "node:fs";

const source = readFileSync(process.argv[2], "utf8");
function take(name) {
  const start = source.indexOf(`function ${name}(`);
  const end = source.indexOf("\n}\n", start);
  if (start < 0 || end < 0) throw new Error(`inspector.js has no function ${name}`);
  return source.slice(start, end + 2);
}
const constant = /^const F32_OVERFLOW = .*$/m.exec(source)[0];
const formatReal = new Function(`${constant}\n${take("isExactly")}\n${take("exactDigits")}\n${take("formatReal")}\nreturn formatReal;`)();

const view = new DataView(new ArrayBuffer(8));
const out = [];
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (!line) continue;
  const [kind, hex] = line.split(" ");
  let x;
  if (kind === "f32") {
    view.setUint32(0, parseInt(hex, 16));
    x = view.getFloat32(0);
  } else {
    view.setBigUint64(0, BigInt("0x" + hex));
    x = view.getFloat64(0);
  }
  out.push(Number.isFinite(x) ? formatReal(x, kind === "f32") : "non-finite");
}
process.stdout.write(out.join("\n") + "\n");
