// The world inspector's script (inlined into the page by ecsgen --inspector). Plain JS, no
// libraries. It reads the schema's metadata from #schema-meta, opens dumps (README.md,
// "Saving and loading": {"schema", "version", "singletons", "entities": [{"id": "5v0",
// component: {field: value}}]}),
// and shows them: a table with filter, sort and paging, one entity, singletons, counts, a diff.
"use strict";

const META = JSON.parse(document.getElementById("schema-meta").textContent);
const COMPONENTS = new Map(META.components.map((c) => [c.name, c]));
const POOLED = META.components.filter((c) => c.kind !== "singleton");
const SINGLETONS = META.components.filter((c) => c.kind === "singleton");
const RELATIONS = POOLED.filter((c) => c.relation); // docs/relations.md: one field, target
const ID_RE = /^(0|[1-9][0-9]*)v(0|[1-9][0-9]*)$/;
const INDEX_MAX = 2 ** 32 - 2;
const GENERATION_MAX = 2 ** 32 - 1;
const DIFF_PAGE = 200;
// Nesting a load reads at most (cJSON's limit): deeper is refused before anything recursive
// (toText, same, the table's cells) could overflow the stack.
const MAX_DEPTH = 1000;

// Own keys only: a dump's object inherits constructor, toString, valueOf, ... from
// Object.prototype, and `name in obj` would see a component of that name on every entity.
const has = (o, k) => o !== null && typeof o === "object" && Object.prototype.hasOwnProperty.call(o, k);
const own = (o, k) => (has(o, k) ? o[k] : undefined);

// One table column per field of each pooled component; a tag is one column of presence.
const COLUMNS = [{ label: "id", comp: null, field: null }];
for (const c of POOLED) {
  if (c.kind === "tag") COLUMNS.push({ comp: c, field: null });
  for (const f of c.fields) COLUMNS.push({ comp: c, field: f });
}

const state = {
  a: null, // the open dump: { name, doc, entities, byId, refsTo }
  b: null, // the dump compared against (diff mode)
  rows: null, // Int32Array: the entities (indexes into a.entities) the filter keeps, in order
  sort: { column: 0, dir: 1 },
  page: 0,
  pageSize: 50,
  diff: null, // { lines, summary }
  recording: null, // an open recording: { name, frames, cache, frame, against }
  changed: null, // ids that changed since the frame compared against (a recording)
  diffPage: 0,
  hidden: new Set(), // components whose columns the column chooser hides
};

// The columns shown: every column of a component not hidden, the id always (with its index
// into COLUMNS, which sorting and data-column keep).
function shownColumns() {
  return COLUMNS.map((column, index) => [column, index]).filter(([column]) => !column.comp || !state.hidden.has(column.comp.name));
}

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ---- the systems' schedule (the generator's, as in --docs) -------------------------------------

// Stage columns of system boxes (each with its access), a sync mark after a stage whose
// structural changes are applied, and the table of pairs kept apart with the reasons.
function renderSchedule() {
  const sched = META.schedule;
  if (!sched || !sched.stages.length) return;
  const byName = new Map(sched.systems.map((x) => [x.name, x]));
  const access = (label, list) => (list.length ? el("div", { class: "access", text: `${label} ${list.join(", ")}` }) : null);
  sched.stages.forEach((stage, k) => {
    const column = el("div", { class: "stage", "data-stage": String(k) }, el("div", { class: "stage-head", text: `stage ${k}` }));
    for (const name of stage.systems) {
      const x = byName.get(name);
      const effects = [x.spawns ? "spawns" : null, x.destroys ? "destroys" : null].filter(Boolean);
      column.append(el("div", { class: "system", "data-system": name, title: x.doc || null },
        el("div", { class: "system-name", text: name }),
        access("reads", x.reads), access("writes", x.writes), access("adds", x.adds), access("removes", x.removes),
        effects.length ? el("div", { class: "access", text: effects.join(", ") }) : null,
        x.split ? null : el("div", { class: "access", text: "one call" })));
    }
    $("stages").append(column);
    if (stage.sync) $("stages").append(el("div", { class: "sync", title: "structural changes applied here", text: "sync" }));
  });
  const body = $("apart").tBodies[0];
  for (const pair of sched.apart)
    body.append(el("tr", null, el("td", { class: "mono", text: pair.first }), el("td", { class: "mono", text: pair.then }),
      el("td", { text: pair.because.map((r) => r.text).join("; ") })));
  $("schedule").hidden = false;
}

// ---- reading a dump ------------------------------------------------------------------------

class DumpError extends Error {}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 37) + "..." : v);
  return String(v);
}

function idKey(id) {
  const m = ID_RE.exec(id);
  return [Number(m[1]), Number(m[2])];
}

// The dump in `text` checked against the schema: { name, doc, entities, byId, warnings }, or
// throws DumpError naming the JSON path, as the generated loader would.
function readDump(text, name) {
  let doc;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new DumpError(`${name}: malformed JSON: ${e.message}`);
  }
  if (isRecording(doc)) return { name, recording: recordingFrames(doc, name) };
  return checkDump(doc, name);
}

// A parsed document checked as readDump checks a dump.
function checkDump(doc, name) {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc))
    throw new DumpError(`${name}: (document): expected an object (a saved world), got ${describe(doc)}`);
  if (tooDeep(doc)) throw new DumpError(`${name}: malformed JSON: nested deeper than ${MAX_DEPTH} levels (a load refuses it)`);
  if (!has(doc, "schema"))
    throw new DumpError(`${name}: schema: missing: not a saved world (a dump starts {"schema": "${META.name}", ...})`);
  if (doc.schema !== META.name)
    throw new DumpError(`${name}: schema: this is a dump of schema ${describe(doc.schema)}; this page inspects schema ` +
      `"${META.name}". Open it with that schema's page (ecsgen ${typeof doc.schema === "string" ? doc.schema : "SCHEMA"}.json --inspector FILE).`);
  const warnings = [];
  if (typeof own(doc, "version") === "number" && doc.version > META.version)
    warnings.push(`version ${doc.version} is newer than the schema's ${META.version}: a program of this schema refuses to load it`);
  if (has(doc, "singletons") && (doc.singletons === null || typeof doc.singletons !== "object" || Array.isArray(doc.singletons)))
    throw new DumpError(`${name}: singletons: expected an object, got ${describe(doc.singletons)}`);
  const list = has(doc, "entities") ? doc.entities : [];
  if (!Array.isArray(list)) throw new DumpError(`${name}: entities: expected an array, got ${describe(list)}`);
  const byId = new Map();
  const unknown = new Set();
  for (let k = 0; k < list.length; k++) {
    const e = list[k];
    if (e === null || typeof e !== "object" || Array.isArray(e))
      throw new DumpError(`${name}: entities[${k}]: expected an object, got ${describe(e)}`);
    const m = typeof own(e, "id") === "string" ? ID_RE.exec(e.id) : null;
    if (!m || Number(m[1]) > INDEX_MAX || Number(m[2]) > GENERATION_MAX)
      throw new DumpError(`${name}: entities[${k}].id: expected an entity id like "5v0", got ${has(e, "id") ? describe(e.id) : "nothing"}`);
    if (byId.has(e.id)) throw new DumpError(`${name}: entities[${k}].id: duplicate id ${e.id}: already entities[${byId.get(e.id)}]`);
    byId.set(e.id, k);
    for (const key of Object.keys(e)) if (key !== "id" && !COMPONENTS.has(key)) unknown.add(key);
  }
  for (const key of Object.keys(own(doc, "singletons") || {})) if (!COMPONENTS.has(key)) unknown.add(key);
  if (unknown.size)
    warnings.push(`names the schema does not have (an older or hand-edited dump?): ${[...unknown].slice(0, 8).join(", ")}` +
      (unknown.size > 8 ? ", ..." : "") + "; shown in the entity view as they are");
  return { name, doc, entities: list, byId, refsTo: null, warnings };
}

// Whether v nests deeper than MAX_DEPTH (v itself is level 1); a walk with its own stack.
function tooDeep(v) {
  if (v === null || typeof v !== "object") return false;
  const values = [v];
  const depths = [1];
  while (values.length) {
    const x = values.pop();
    const depth = depths.pop();
    if (depth > MAX_DEPTH) return true;
    const items = Array.isArray(x) ? x : Object.values(x);
    for (let k = 0; k < items.length; k++) {
      const y = items[k];
      if (y !== null && typeof y === "object") {
        values.push(y);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

// ---- recordings (<name>_recorder_save_all, docs/debugging-with-dumps.md "Flight recorder") ----

function isRecording(doc) {
  return doc !== null && typeof doc === "object" && !Array.isArray(doc) && has(doc, "recording") && has(doc, "first");
}

// Every frame of a recording as a saved world, oldest first: the first in full, each delta
// applied to the frame before (singletons, removed, entities, changed). Throws DumpError
// naming the path in the recording.
function recordingFrames(doc, name) {
  const slotOf = (id, path) => {
    const m = typeof id === "string" ? ID_RE.exec(id) : null;
    if (!m) throw new DumpError(`${name}: ${path}: expected an entity id like "5v0", got ${describe(id)}`);
    return Number(m[1]);
  };
  const first = doc.first;
  if (first === null || typeof first !== "object" || Array.isArray(first))
    throw new DumpError(`${name}: first: expected a saved world, got ${describe(first)}`);
  if (!Array.isArray(doc.deltas)) throw new DumpError(`${name}: deltas: expected an array, got ${describe(doc.deltas)}`);
  let bySlot = new Map();
  (Array.isArray(first.entities) ? first.entities : []).forEach((e, k) => bySlot.set(slotOf(e && e.id, `first.entities[${k}].id`), e));
  let singletons = first.singletons || {};
  const head = Object.fromEntries(Object.entries(first).filter(([k]) => k !== "singletons" && k !== "entities"));
  const frames = [first];
  doc.deltas.forEach((d, n) => {
    const where = `deltas[${n}]`;
    if (d === null || typeof d !== "object" || Array.isArray(d)) throw new DumpError(`${name}: ${where}: expected an object, got ${describe(d)}`);
    singletons = { ...singletons, ...(d.singletons || {}) };
    bySlot = new Map(bySlot);
    (d.removed || []).forEach((id, k) => {
      const slot = slotOf(id, `${where}.removed[${k}]`);
      if (!bySlot.has(slot)) throw new DumpError(`${name}: ${where}.removed[${k}]: no entity in this slot in the frame before`);
      bySlot.delete(slot);
    });
    (d.entities || []).forEach((e, k) => bySlot.set(slotOf(e && e.id, `${where}.entities[${k}].id`), e));
    (d.changed || []).forEach((e, k) => {
      const slot = slotOf(e && e.id, `${where}.changed[${k}].id`);
      const old = bySlot.get(slot);
      if (!old || old.id !== e.id) throw new DumpError(`${name}: ${where}.changed[${k}].id: no entity with this id in the frame before`);
      bySlot.set(slot, { ...old, ...e });
    });
    const entities = [...bySlot.keys()].sort((x, y) => x - y).map((s) => bySlot.get(s));
    frames.push({ ...head, singletons, entities });
  });
  return frames;
}

// Shows frame k of the open recording as the open dump, and the diff from frame `against`
// (default: the frame before) to it: "what changed since the previous frame", the changed
// rows marked in the table.
function showFrame(k, against) {
  const rec = state.recording;
  k = Math.max(0, Math.min(rec.frames.length - 1, k));
  if (against === undefined || against === null) against = k > 0 ? k - 1 : null;
  const dumpOf = (j) => {
    if (!rec.cache.has(j)) rec.cache.set(j, checkDump(rec.frames[j], `${rec.name} frame ${j}`));
    return rec.cache.get(j);
  };
  state.a = dumpOf(k);
  state.b = against === null ? null : dumpOf(against);
  rec.frame = k;
  rec.against = against;
  $("timeline-slider").value = String(k);
  $("timeline-frame").textContent = `frame ${k} of ${rec.frames.length - 1}`;
  $("timeline-against").value = against === null ? "" : String(against);
  state.diff = state.b ? computeDiff(state.b, state.a) : null;
  state.changed = new Set();
  if (state.diff) for (const line of state.diff.lines) if (line.id) state.changed.add(line.id);
  state.diffPage = 0;
  applyFilter();
  renderOverview();
  renderRelations();
  renderDiff();
  if (state.diff) $("diff-files").textContent = `${state.b.name} → ${state.a.name}`;
  $("status").textContent = `${rec.name}: recording of ${rec.frames.length} frames; frame ${k}: ${state.a.entities.length} entities` +
    (state.b ? `, ${state.changed.size} changed since frame ${against}` : "");
}

async function openText(slot, textPromise, name) {
  const started = performance.now();
  $("status").textContent = `${name}: reading…`;
  let dump;
  try {
    dump = readDump(await textPromise, name);
  } catch (e) {
    const kept = state[slot] ? ` (still showing ${state[slot].name})` : "";
    showError((e instanceof DumpError ? e.message : `${name}: ${e.message}`) + kept);
    $("status").textContent = `${name}: not opened`;
    return false;
  }
  clearError();
  if (dump.recording) {
    state.recording = { name, frames: dump.recording, cache: new Map(), frame: 0, against: null };
    const slider = $("timeline-slider");
    slider.max = String(dump.recording.length - 1);
    $("timeline").hidden = false;
    $("entity").hidden = true;
    state.page = 0;
    showFrame(dump.recording.length - 1);
    routeHash();
    return true;
  }
  if (slot === "a") {
    state.recording = null;
    $("timeline").hidden = true;
    state.changed = null;
  }
  const before = state[slot];
  state[slot] = dump;
  const ms = performance.now() - started;
  try {
    if (slot === "a") {
      state.page = 0;
      applyFilter();
      renderOverview();
      renderRelations();
      $("entity").hidden = true;
    }
    state.diff = state.a && state.b ? computeDiff(state.a, state.b) : null;
    state.diffPage = 0;
    renderDiff();
  } catch (e) { // never left at "reading…": say what went wrong
    state[slot] = before;
    $("status").textContent = `${name}: not shown`;
    showError(`${name}: cannot show it: ${e.message}` + (before ? ` (still showing ${before.name})` : ""));
    return false;
  }
  const warn = [...(state.a ? state.a.warnings.map((w) => `${state.a.name}: ${w}`) : []),
                ...(state.b ? state.b.warnings.map((w) => `${state.b.name}: ${w}`) : [])];
  $("warning").hidden = !warn.length;
  $("warning").textContent = warn.join("\n");
  $("status").textContent = `${name}: ${dump.entities.length} entities, schema "${META.name}" version ` +
    `${dump.doc.version ?? "?"} (read in ${Math.round(ms)} ms)` + (slot === "b" ? `, compared with ${state.a ? state.a.name : "nothing yet"}` : "");
  routeHash();
  return true;
}

function openFile(slot, file) {
  if (file) openText(slot, file.text(), file.name);
}

function openUrl(slot, url) {
  const text = fetch(url).then((r) => {
    if (!r.ok) throw new Error(`cannot fetch: HTTP ${r.status}`);
    return r.text();
  }, () => {
    throw new Error(location.protocol === "file:" ?
      "cannot fetch it from a file:// page (browsers forbid it): serve the directory (python3 -m http.server) or use Open dump…" :
      "cannot fetch it (network error)");
  });
  return openText(slot, text, url);
}

function showError(message) {
  $("error").hidden = false;
  $("error").textContent = message;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

// ---- values --------------------------------------------------------------------------------

// A value as a number for comparisons: i64/u64 from 2^53 on are decimal strings, NaN and the
// infinities are strings too (README.md, "Saving and loading"); precision beyond a double's is not kept.
function toNumber(v) {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return v === "-NaN" ? NaN : Number(v);
  return NaN;
}

// Compact JSON as ecsgen-dump prints it: `{"x": 1, "y": 2}`, `[1, 2]`.
function toText(v) {
  if (Array.isArray(v)) return "[" + v.map(toText).join(", ") + "]";
  if (v !== null && typeof v === "object") return "{" + Object.keys(v).map((k) => `${JSON.stringify(k)}: ${toText(v[k])}`).join(", ") + "}";
  return JSON.stringify(v);
}

// Finite x as the C writer writes it (ecs_json_format_real; an f32 when single): the fewest
// significant digits that read back to the same bits (through a double, then Math.fround for
// f32), laid out as Number.prototype.toString (plain from 1e-7 up to below 1e21). ecsgen-dump's
// format_real is the same rule; tests/json/test_float_text.py holds all three to one corpus.
const F32_OVERFLOW = (2 ** 25 - 1) * 2 ** 103; // 0x1.ffffffp127: from here on a double rounds to a float's infinity

function formatReal(x, single) {
  if (!Number.isFinite(x)) return String(x);
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return sign + "0";
  const want = single ? Math.fround(x) : x;
  let digits = "", exp = 0;
  for (let p = 1; p <= 17; p++) {
    [digits, exp] = exactDigits(Math.abs(x), p);
    const back = Number(`${sign}${digits}e${exp - (p - 1)}`);
    if (single ? Math.abs(back) < F32_OVERFLOW && Object.is(Math.fround(back), want) : Object.is(back, want)) break;
  }
  digits = digits.replace(/0+$/, "") || "0";
  const k = digits.length, n = exp + 1; // the value is 0.DIGITS x 10^n
  let text;
  if (k <= n && n <= 21) text = digits + "0".repeat(n - k);
  else if (0 < n && n <= 21) text = digits.slice(0, n) + "." + digits.slice(n);
  else if (-6 < n && n <= 0) text = "0." + "0".repeat(-n) + digits;
  else text = digits[0] + (k > 1 ? "." + digits.slice(1) : "") + "e" + (n - 1 < 0 ? "-" : "+") + Math.abs(n - 1);
  return sign + text;
}

// x > 0 rounded to p significant digits as C's printf("%.*e") does (exact, ties to even):
// [digit string, exponent of the first digit]. toExponential rounds ties up, so an exact tie
// (checked with BigInt against x's binary value) takes the even neighbour.
function exactDigits(x, p) {
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential(p - 1));
  let digits = m[1] + (m[2] || ""), exp = Number(m[3]);
  const more = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential(p));
  const longer = more[1] + (more[2] || "");
  if (longer.endsWith("5") && (Number(digits[digits.length - 1]) % 2 === 1) && isExactly(x, longer, Number(more[3]) - p)) {
    // A tie rounded up to an odd last digit: the even one is the one below, longer cut short.
    digits = longer.slice(0, p);
    exp = Number(more[3]);
  }
  return [digits, exp];
}

// Whether x is exactly the decimal DIGITS x 10^e.
function isExactly(x, digits, e) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0), lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let q = biased === 0 ? -1074 : biased - 1075;
  if (biased !== 0) mant |= 1n << 52n;
  // mant * 2^q == digits * 10^e
  let left = mant, right = BigInt(digits);
  if (q >= 0) left <<= BigInt(q); else right <<= BigInt(-q);
  if (e >= 0) right *= 10n ** BigInt(e); else left *= 10n ** BigInt(-e);
  return left === right;
}

// A number of field f as the C writer writes it: f32 and f64 as formatReal, the rest as is.
function numberText(f, x) {
  return typeof x === "number" && f && f.kind === "float" ? formatReal(x, f.type.startsWith("f32")) : String(x);
}

function fieldText(f, v) {
  if (v === undefined) return "";
  if (f && f.length !== null && f.kind !== "char" && Array.isArray(v)) return "[" + v.map((x) => (x === null ? "null" : numberText(f, x))).join(", ") + "]";
  if (v === null) return "null";
  return typeof v === "string" ? v : typeof v === "object" ? toText(v) : numberText(f, v);
}

function typeText(f) {
  return f.kind === "enum" ? `enum { ${f.values.join(", ")} }` : f.type;
}

// A link to entity `id` (of dump slot "a" or "b"), or the id marked stale when that dump lacks it.
function entityLink(id, slot = "a") {
  if (id === null || id === undefined) return el("span", { class: "mono", text: "null" });
  const dump = state[slot];
  if (typeof id === "string" && dump && dump.byId.has(id))
    return el("a", { href: `#${slot === "b" ? "b" : "e"}=${id}`, class: "mono ref", "data-ref": id, text: id });
  return el("span", { class: "mono stale", title: "not in this dump: destroyed (a stale reference)", text: `${fieldText(null, id)} (stale)` });
}

// A cell or field value: entity references as links, arrays of them link by element.
function valueNode(f, v, slot = "a") {
  if (f && f.kind === "entity") {
    if (Array.isArray(v)) {
      const span = el("span", {}, "[");
      v.forEach((x, k) => span.append(k ? ", " : "", entityLink(x, slot)));
      span.append("]");
      return span;
    }
    return entityLink(v, slot);
  }
  return document.createTextNode(fieldText(f, v));
}

// ---- the filter ----------------------------------------------------------------------------

const TERM_RE = /(?:[^\s"]+|"(?:[^"\\]|\\.)*")+/g;
const COMPARE_RE = /^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(?:\[([0-9]+)\])?(<=|>=|!=|==|=|<|>|~)(.*)$/;
const ID_COMPARE_RE = /^id(?:\.(index|generation))?(<=|>=|!=|==|=|<|>)(.*)$/;

function unquote(text) {
  if (text.length >= 2 && text[0] === '"' && text[text.length - 1] === '"') {
    try {
      return JSON.parse(text);
    } catch (e) {
      return text.slice(1, -1);
    }
  }
  return text;
}

function closest(word, names) {
  let best = null;
  let bestScore = Infinity;
  for (const n of names) {
    const d = editDistance(word.toLowerCase(), n.toLowerCase());
    if (d < bestScore) [best, bestScore] = [n, d];
  }
  return best !== null && bestScore <= Math.max(2, word.length / 3) ? ` (did you mean ${best}?)` : "";
}

function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

function pooledComponent(name, term) {
  const c = COMPONENTS.get(name);
  if (!c) throw new Error(`${term}: no component "${name}"${closest(name, POOLED.map((x) => x.name))}`);
  if (c.kind === "singleton") throw new Error(`${term}: "${name}" is a singleton: it is shown under Singletons, not on entities`);
  return c;
}

function order(op, x, y) {
  switch (op) {
    case "=": case "==": return x === y;
    case "!=": return x !== y;
    case "<": return x < y;
    case "<=": return x <= y;
    case ">": return x > y;
    case ">=": return x >= y;
  }
  return false;
}

// A test on one value of field f (an element, for arrays), for `op` and the text `raw`.
function valueTest(f, op, raw, term) {
  const text = unquote(raw);
  const where = `${term}: ${f.type} field`;
  if (op === "~") {
    const needle = text.toLowerCase();
    return (v) => v !== undefined && fieldText(f, v).toLowerCase().includes(needle);
  }
  switch (f.kind) {
    case "int": case "uint": case "float": {
      const y = toNumber(text);
      if (text === "" || Number.isNaN(y) && !/^-?NaN$/.test(text)) throw new Error(`${where} compares with a number, got "${text}"`);
      return (v) => order(op, toNumber(v), y);
    }
    case "bool": {
      if (text !== "true" && text !== "false") throw new Error(`${where} compares with true or false, got "${text}"`);
      if (op !== "=" && op !== "==" && op !== "!=") throw new Error(`${term}: a bool takes = or !=`);
      const y = text === "true";
      return (v) => order(op, v, y);
    }
    case "enum": {
      const y = f.values.indexOf(text);
      if (y < 0) throw new Error(`${where}: "${text}" is not one of ${f.values.join(", ")}${closest(text, f.values)}`);
      return (v) => order(op, f.values.indexOf(v), y);
    }
    case "entity": {
      if (text !== "null" && !ID_RE.test(text)) throw new Error(`${where} compares with an id like 5v0 or null, got "${text}"`);
      if (op !== "=" && op !== "==" && op !== "!=") throw new Error(`${term}: an entity takes = or !=`);
      const y = text === "null" ? null : text;
      return (v) => order(op, v === undefined ? undefined : v, y);
    }
    default: // char[N]
      return (v) => typeof v === "string" && order(op, v, text);
  }
}

// The filter text as one predicate over an entity object; throws Error naming the bad term.
function compileFilter(text) {
  const tests = [];
  for (const term of text.match(TERM_RE) || []) {
    const negate = term.startsWith("!") && term.length > 1;
    const body = negate ? term.slice(1) : term;
    let test;
    let m;
    if (body.startsWith("has:")) {
      const names = body.slice(4).split("|").filter(Boolean);
      if (!names.length) throw new Error(`${term}: has: takes a component, e.g. has:${POOLED[0] ? POOLED[0].name : "C"}`);
      names.forEach((n) => pooledComponent(n, term));
      test = names.length === 1 ? (e) => has(e, names[0]) : (e) => names.some((n) => has(e, n));
    } else if ((m = ID_COMPARE_RE.exec(body))) {
      const [, part, op, raw] = m;
      const text = unquote(raw);
      if (!part) {
        if (!ID_RE.test(text)) throw new Error(`${term}: expected an id like 5v0, got "${text}"`);
        if (op !== "=" && op !== "==" && op !== "!=") throw new Error(`${term}: an id takes = or != (id.index and id.generation take < and >)`);
        test = (e) => order(op, e.id, text);
      } else {
        const y = Number(text);
        if (text === "" || Number.isNaN(y)) throw new Error(`${term}: id.${part} compares with a number, got "${text}"`);
        const at = part === "index" ? 0 : 1;
        test = (e) => order(op, idKey(e.id)[at], y);
      }
    } else if ((m = COMPARE_RE.exec(body))) {
      const [, cname, fname, element, op, raw] = m;
      const c = pooledComponent(cname, term);
      const f = c.fields.find((x) => x.name === fname);
      if (!f) throw new Error(`${term}: ${cname} has no field "${fname}"${c.fields.length ? closest(fname, c.fields.map((x) => x.name)) : " (it is a tag: use has:" + cname + ")"}`);
      const isArray = f.length !== null && f.kind !== "char";
      if (element !== undefined && !isArray) throw new Error(`${term}: ${cname}.${fname} is not an array`);
      if (element !== undefined && Number(element) >= f.length) throw new Error(`${term}: ${cname}.${fname} has ${f.length} elements (0 to ${f.length - 1})`);
      const one = valueTest(f, op, raw, term);
      if (element !== undefined) {
        const k = Number(element);
        test = (e) => Array.isArray(own(own(e, cname), fname)) && one(e[cname][fname][k]);
      } else if (isArray) {
        test = (e) => Array.isArray(own(own(e, cname), fname)) && e[cname][fname].some(one);
      } else {
        test = (e) => has(e, cname) && e[cname] !== null && typeof e[cname] === "object" && one(own(e[cname], fname));
      }
    } else if (COMPONENTS.has(body)) {
      throw new Error(`${term}: to keep entities with ${body}, write has:${body}`);
    } else {
      throw new Error(`${term}: not a filter term: write has:C, C.field OP value (OP: = != < <= > >= ~) or id=5v0`);
    }
    tests.push(negate ? (e) => !test(e) : test);
  }
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0];
  return (e) => tests.every((t) => t(e));
}

function applyFilter() {
  const dump = state.a;
  if (!dump) return;
  let predicate;
  try {
    predicate = compileFilter($("filter").value);
    $("filter-error").hidden = true;
  } catch (e) {
    $("filter-error").hidden = false;
    $("filter-error").textContent = e.message;
    return;
  }
  const list = dump.entities;
  let rows;
  if (!predicate) {
    rows = new Int32Array(list.length);
    for (let k = 0; k < list.length; k++) rows[k] = k;
  } else {
    const keep = new Int32Array(list.length);
    let n = 0;
    for (let k = 0; k < list.length; k++) if (predicate(list[k])) keep[n++] = k;
    rows = keep.slice(0, n);
  }
  state.rows = sortRows(rows);
  state.page = 0;
  $("filter-count").textContent = `${state.rows.length} of ${list.length} entities match`;
  renderTable();
}

// ---- sorting -------------------------------------------------------------------------------

function cellValue(column, e) {
  if (!column.comp) return e.id;
  const part = own(e, column.comp.name);
  if (part === undefined) return undefined;
  if (!column.field) return true;
  return own(part, column.field.name);
}

// Rows ordered by the sort column: absent values last in either direction, ties by id.
function sortRows(rows) {
  const column = COLUMNS[state.sort.column];
  const dir = state.sort.dir;
  const list = state.a.entities;
  const n = rows.length;
  const idIndex = new Float64Array(n);
  const idGen = new Float64Array(n);
  for (let k = 0; k < n; k++) [idIndex[k], idGen[k]] = idKey(list[rows[k]].id);
  const byId = (x, y) => idIndex[x] - idIndex[y] || idGen[x] - idGen[y];
  const slots = new Int32Array(n);
  for (let k = 0; k < n; k++) slots[k] = k;
  let compare;
  if (!column.comp) {
    compare = (x, y) => dir * byId(x, y);
  } else {
    const kind = column.field ? column.field.kind : "bool";
    const numeric = ["int", "uint", "float", "bool", "enum"].includes(kind) && !(column.field && column.field.length !== null);
    const keys = numeric ? new Float64Array(n) : new Array(n);
    const present = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const v = cellValue(column, list[rows[k]]);
      present[k] = v !== undefined ? 1 : 0;
      if (v === undefined) continue;
      if (!numeric) keys[k] = fieldText(column.field, v);
      else if (kind === "enum") keys[k] = column.field.values.indexOf(v);
      else keys[k] = toNumber(v);
    }
    compare = (x, y) => {
      if (present[x] !== present[y]) return present[y] - present[x];
      if (present[x]) {
        const a = keys[x];
        const b = keys[y];
        if (a < b) return -dir;
        if (a > b) return dir;
        if (numeric && Number.isNaN(a) !== Number.isNaN(b)) return Number.isNaN(a) ? 1 : -1;
      }
      return byId(x, y);
    };
  }
  slots.sort(compare);
  const out = new Int32Array(n);
  for (let k = 0; k < n; k++) out[k] = rows[slots[k]];
  return out;
}

function sortBy(index) {
  if (state.sort.column === index) state.sort.dir = -state.sort.dir;
  else state.sort = { column: index, dir: 1 };
  state.rows = sortRows(state.rows);
  state.page = 0;
  renderTable();
}

// ---- rendering -----------------------------------------------------------------------------

function renderTableHead() {
  const thead = $("table").tHead;
  thead.textContent = "";
  const groups = el("tr");
  const names = el("tr");
  shownColumns().forEach(([column, index]) => {
    const sorted = state.sort.column === index ? (state.sort.dir > 0 ? " sortable sorted-asc" : " sortable sorted-desc") : " sortable";
    const th = el("th", { class: sorted.trim(), "data-column": index, onclick: () => sortBy(index),
      title: column.comp ? (column.field ? `${column.comp.name}.${column.field.name}: ${typeText(column.field)}${column.field.doc ? " — " + column.field.doc : ""}` : `${column.comp.name} (tag)`) : "entity id" });
    if (!column.comp) {
      th.rowSpan = 2;
      th.classList.add("id-col");
      th.textContent = "id";
      groups.append(th);
      return;
    }
    const c = column.comp;
    const first = c.kind === "tag" || column.field === c.fields[0];
    if (first) groups.append(el("th", { class: "group", colspan: c.kind === "tag" ? 1 : c.fields.length, title: c.doc || c.name, text: c.name }));
    th.textContent = column.field ? column.field.name : "✓";
    names.append(th);
  });
  thead.append(groups, names);
}

function renderTable() {
  renderTableHead();
  const tbody = $("table").tBodies[0];
  const rows = state.rows;
  const pages = Math.max(1, Math.ceil(rows.length / state.pageSize));
  state.page = Math.min(Math.max(0, state.page), pages - 1);
  const start = state.page * state.pageSize;
  const end = Math.min(rows.length, start + state.pageSize);
  const fragment = document.createDocumentFragment();
  const shown = shownColumns();
  for (let r = start; r < end; r++) {
    const e = state.a.entities[rows[r]];
    const tr = el("tr", { "data-id": e.id, class: state.changed && state.changed.has(e.id) ? "changed" : null });
    for (const [column] of shown) {
      const v = cellValue(column, e);
      if (!column.comp) {
        tr.append(el("td", { class: "id-col" }, el("a", { href: `#e=${e.id}`, class: "mono", text: e.id })));
      } else if (v === undefined) {
        tr.append(el("td", { class: "absent" }));
      } else if (!column.field) {
        tr.append(el("td", { class: "tag", title: column.comp.name, text: "●" }));
      } else {
        const numeric = ["int", "uint", "float"].includes(column.field.kind) && column.field.length === null;
        tr.append(el("td", { class: numeric ? "num" : null }, valueNode(column.field, v)));
      }
    }
    fragment.append(tr);
  }
  tbody.textContent = "";
  tbody.append(fragment);
  renderPager($("pager"), state.page, pages, `rows ${rows.length ? start + 1 : 0}–${end} of ${rows.length}`, (p) => {
    state.page = p;
    renderTable();
  }, true);
  $("entities").hidden = false;
}

// The column chooser: one checkbox per pooled component (its columns shown or hidden), and
// all / none. The id column always stays, pinned at the left.
function renderColumnChooser() {
  const list = $("column-list");
  list.textContent = "";
  const count = () => {
    $("columns-count").textContent = `${POOLED.length - state.hidden.size} of ${POOLED.length} components`;
  };
  const boxes = [];
  for (const c of POOLED) {
    const box = el("input", { type: "checkbox", "data-component": c.name, checked: !state.hidden.has(c.name) });
    box.addEventListener("change", () => {
      if (box.checked) state.hidden.delete(c.name);
      else state.hidden.add(c.name);
      count();
      if (state.rows) renderTable();
    });
    boxes.push(box);
    list.append(el("label", { title: c.doc || c.name }, box, ` ${c.name}`));
  }
  const every = (show) => () => {
    for (const box of boxes) box.checked = show;
    state.hidden = show ? new Set() : new Set(POOLED.map((c) => c.name));
    count();
    if (state.rows) renderTable();
  };
  list.append(el("button", { type: "button", "data-columns": "all", onclick: every(true), text: "all" }),
    el("button", { type: "button", "data-columns": "none", onclick: every(false), text: "none" }));
  count();
}

function renderPager(box, page, pages, label, go, sizes) {
  box.textContent = "";
  const button = (text, target, name) => el("button", { type: "button", "data-page": name, disabled: target < 0 || target >= pages || target === page,
    onclick: () => go(target), text });
  box.append(button("«", 0, "first"), button("‹", page - 1, "prev"), el("span", { text: `page ${page + 1} of ${pages}, ${label}` }),
    button("›", page + 1, "next"), button("»", pages - 1, "last"));
  if (sizes) {
    const select = el("select", { "aria-label": "rows per page" });
    for (const n of [50, 100, 500]) select.append(el("option", { value: n, selected: n === state.pageSize, text: `${n} per page` }));
    select.addEventListener("change", () => {
      state.pageSize = Number(select.value);
      state.page = 0;
      renderTable();
    });
    box.append(select);
  }
}

function renderOverview() {
  const dump = state.a;
  const counts = POOLED.map((c) => [c, 0]);
  for (const e of dump.entities) for (const pair of counts) if (has(e, pair[0].name)) pair[1]++;
  $("entity-total").textContent = `${dump.entities.length} entities in ${dump.name}`;
  // The chart: one bar per component, its length the number of entities that have it.
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  const rowHeight = 20;
  const labelWidth = 110;
  const barWidth = 260;
  const max = Math.max(1, ...counts.map((p) => p[1]));
  svg.textContent = "";
  svg.setAttribute("width", labelWidth + barWidth + 70);
  svg.setAttribute("height", counts.length * rowHeight + 4);
  counts.forEach(([c, n], k) => {
    const g = document.createElementNS(ns, "g");
    g.setAttribute("data-component", c.name);
    g.setAttribute("data-count", n);
    g.addEventListener("click", () => {
      $("filter").value = `has:${c.name}`;
      applyFilter();
    });
    const y = k * rowHeight + 2;
    const title = document.createElementNS(ns, "title");
    title.textContent = `${c.name}: ${n} entities (click: filter has:${c.name})`;
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", labelWidth - 6);
    label.setAttribute("y", y + 13);
    label.setAttribute("text-anchor", "end");
    label.textContent = c.name + (c.kind === "tag" ? " (tag)" : "");
    const bar = document.createElementNS(ns, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("x", labelWidth);
    bar.setAttribute("y", y + 2);
    bar.setAttribute("height", rowHeight - 6);
    bar.setAttribute("width", Math.max(n ? 1 : 0, (n / max) * barWidth).toFixed(1));
    const count = document.createElementNS(ns, "text");
    count.setAttribute("x", labelWidth + (n / max) * barWidth + 6);
    count.setAttribute("y", y + 13);
    count.textContent = String(n);
    g.append(title, label, bar, count);
    svg.append(g);
  });
  // Singletons, apart from entities.
  const box = $("singletons");
  box.textContent = "";
  const values = own(dump.doc, "singletons") || {};
  if (!SINGLETONS.length) box.append(el("p", { text: "The schema has no singletons." }));
  for (const c of SINGLETONS)
    box.append(componentCard(c, own(values, c.name), "a", has(values, c.name) ? null : "not in the dump: a load gives it the schema's defaults"));
  $("overview").hidden = false;
}

// One component of an entity (or a singleton) with its fields, types, values and docs;
// `changes` maps field names to their value in dump B (diff mode).
function componentCard(c, value, slot, note, changes) {
  const head = el("h3", {}, c.name, " ", el("small", { text: c.kind === "data" ? `${c.storage} storage` : c.kind }));
  const card = el("div", { class: "card", "data-component": c.name }, head);
  if (c.doc) card.append(el("p", { class: "doc", text: c.doc }));
  if (note) card.append(el("p", { class: "doc", text: note }));
  if (c.fields.length && value !== undefined) {
    const table = el("table", {}, el("tr", {}, el("th", { text: "field" }), el("th", { text: "type" }), el("th", { text: "value" }), el("th", { text: "doc" })));
    for (const f of c.fields) {
      const v = own(value, f.name);
      const cell = el("td", { class: "value", "data-field": f.name }, v === undefined ? el("em", { text: "missing (default on load)" }) : valueNode(f, v, slot));
      if (changes && has(changes, f.name)) {
        cell.classList.add("changed");
        cell.append(" → ", valueNode(f, changes[f.name], "b"));
      }
      table.append(el("tr", {}, el("td", { class: "mono", text: f.name }), el("td", { class: "mono", text: typeText(f) }), cell, el("td", { class: "doc", text: f.doc })));
    }
    card.append(table);
  }
  return card;
}

function referencesTo(dump) {
  if (dump.refsTo) return dump.refsTo;
  const refs = new Map();
  const entityFields = POOLED.flatMap((c) => c.fields.filter((f) => f.kind === "entity").map((f) => [c.name, f.name]));
  for (const e of dump.entities) {
    for (const [c, f] of entityFields) {
      const v = own(own(e, c), f);
      for (const target of Array.isArray(v) ? v : [v]) {
        if (typeof target !== "string") continue;
        if (!refs.has(target)) refs.set(target, []);
        refs.get(target).push([e.id, `${c}.${f}`]);
      }
    }
  }
  dump.refsTo = refs;
  return refs;
}

function showEntity(id, slot) {
  const dump = state[slot];
  const section = $("entity");
  const body = $("entity-body");
  body.textContent = "";
  $("entity-id").textContent = id + (slot === "b" ? ` (in ${dump ? dump.name : "B"})` : "");
  section.hidden = false;
  if (!dump || !dump.byId.has(id)) {
    body.append(el("p", { class: "stale", text: `${id} is not in ${dump ? dump.name : "this dump"}: destroyed, or never spawned.` }));
    section.scrollIntoView({ block: "nearest" });
    return;
  }
  const e = dump.entities[dump.byId.get(id)];
  const other = slot === "a" && state.b ? state.b : null;
  const after = other && other.byId.has(id) ? other.entities[other.byId.get(id)] : null;
  if (other) body.append(el("p", { class: after ? "" : "removed", text: after ? `In ${other.name}: changed fields are marked (A → B).` : `Not in ${other.name}: removed.` }));
  const cards = el("div", { class: "cards" });
  let count = 0;
  for (const c of POOLED) {
    if (!has(e, c.name)) continue;
    count++;
    let changes = null;
    if (after) {
      changes = Object.create(null);
      const b = own(after, c.name);
      for (const f of c.fields) {
        const x = own(e[c.name], f.name);
        const y = own(b, f.name);
        if (!same(x, y)) changes[f.name] = y;
      }
    }
    const gone = after && !has(after, c.name) ? `removed in ${other.name}` : null;
    cards.append(componentCard(c, e[c.name], slot, gone, changes));
  }
  for (const key of Object.keys(e)) {
    if (key === "id" || COMPONENTS.has(key)) continue;
    cards.append(el("div", { class: "card", "data-component": key }, el("h3", {}, key, " ", el("small", { text: "not in the schema" })),
      el("pre", { class: "mono", text: toText(e[key]) })));
  }
  if (after) {
    for (const c of POOLED) if (has(after, c.name) && !has(e, c.name)) cards.append(componentCard(c, after[c.name], "b", `added in ${other.name}`));
  }
  body.append(el("p", { text: `${count} component${count === 1 ? "" : "s"}.` }), cards);
  if (slot === "a") {
    for (const r of RELATIONS) {
      const index = relationIndex(dump, r);
      const below = index.sources.get(id) || [];
      if (!has(e, r.name) && !below.length) continue;
      const show = el("a", { href: "#", class: "in-tree", "data-relation": r.name, text: `show in the ${r.name} tree` });
      show.addEventListener("click", (ev) => {
        ev.preventDefault();
        revealInTree(r, id);
      });
      const line = el("p", { class: "relation-links", "data-relation": r.name }, `${r.name}: `);
      if (has(e, r.name) && e[r.name] && typeof e[r.name].target === "string") line.append("points at ", entityLink(e[r.name].target), "; ");
      line.append(`${below.length} point${below.length === 1 ? "s" : ""} at it`);
      if (below.length) {
        line.append(" (");
        below.slice(0, 20).forEach((s, k) => line.append(k ? ", " : "", entityLink(s)));
        line.append(below.length > 20 ? ", ...)" : ")");
      }
      line.append(" · ", show);
      body.append(line);
    }
  }
  const refs = referencesTo(dump).get(id) || [];
  if (refs.length) {
    const list = el("ul", { class: "referenced-by" });
    for (const [from, path] of refs.slice(0, 100)) list.append(el("li", {}, entityLink(from, slot), ` ${path}`));
    body.append(el("h3", { text: `Referenced by ${refs.length}` }), list);
  }
  section.scrollIntoView({ block: "nearest" }); // beside the table, pinned: usually in view already
}

// ---- relations: a tree per relation, each target above the entities pointing at it ---------

const TREE_PAGE = 200; // nodes shown per level before "more"

// For relation r in dump: sources by target id, and the roots (targets without r), each in
// id order.
function relationIndex(dump, r) {
  dump.relations = dump.relations || new Map();
  if (dump.relations.has(r.name)) return dump.relations.get(r.name);
  const sources = new Map();
  for (const e of dump.entities) {
    const v = e[r.name];
    if (v === null || typeof v !== "object" || typeof v.target !== "string") continue;
    if (!sources.has(v.target)) sources.set(v.target, []);
    sources.get(v.target).push(e.id);
  }
  const byIdOrder = (x, y) => {
    const [xi, xg] = idKey(x), [yi, yg] = idKey(y);
    return xi - yi || xg - yg;
  };
  for (const list of sources.values()) list.sort(byIdOrder);
  const roots = [...sources.keys()].filter((id) => {
    const k = dump.byId.get(id);
    const e = k === undefined ? null : dump.entities[k];
    return !e || !e[r.name] || typeof e[r.name] !== "object";
  }).sort(byIdOrder);
  const index = { sources, roots };
  dump.relations.set(r.name, index);
  return index;
}

// The entities below id (all depths), counted once.
function descendants(index, id) {
  let n = 0;
  const todo = [id];
  const seen = new Set(todo);
  while (todo.length) {
    for (const s of index.sources.get(todo.pop()) || []) {
      if (seen.has(s)) continue; // a hand-edited dump may have a cycle
      seen.add(s);
      n++;
      todo.push(s);
    }
  }
  return n;
}

// One node: its link, its sources' count, and (opened) its sources, made when first opened.
function treeNode(r, index, id) {
  const below = index.sources.get(id) || [];
  const label = el("span", { class: "tree-label" }, entityLink(id),
    below.length ? el("small", { text: ` ${below.length} direct, ${descendants(index, id)} in all` }) : "");
  if (!below.length) return el("li", { class: "leaf", "data-id": id }, label);
  const details = el("details", { "data-id": id }, el("summary", {}, label));
  details.addEventListener("toggle", () => {
    if (details.open && !details.querySelector("ul")) details.append(treeList(r, index, below));
  });
  return el("li", { "data-id": id }, details);
}

function treeList(r, index, ids) {
  const list = el("ul", { class: "tree" });
  const more = (from) => {
    for (const id of ids.slice(from, from + TREE_PAGE)) list.append(treeNode(r, index, id));
    if (from + TREE_PAGE < ids.length) {
      const button = el("button", { type: "button", class: "more", text: `${ids.length - from - TREE_PAGE} more` });
      button.addEventListener("click", () => {
        button.parentNode.remove();
        more(from + TREE_PAGE);
      });
      list.append(el("li", {}, button));
    }
  };
  more(0);
  return list;
}

function renderRelations() {
  const box = $("relation-trees");
  box.textContent = "";
  if (!RELATIONS.length) {
    $("relations").hidden = true;
    return;
  }
  for (const r of RELATIONS) {
    const index = relationIndex(state.a, r);
    let members = 0;
    for (const list of index.sources.values()) members += list.length;
    const tree = el("div", { class: "relation", "data-relation": r.name },
      el("h3", {}, r.name, " ", el("small", { text: `on_target_destroy: ${r.relation}; ${members} entities point at ${index.sources.size}; ${index.roots.length} root${index.roots.length === 1 ? "" : "s"}` })),
      treeList(r, index, index.roots));
    if (r.doc) tree.insertBefore(el("p", { class: "doc", text: r.doc }), tree.children[1]);
    box.append(tree);
  }
  $("relations").hidden = false;
}

// Opens relation r's tree down to id (each ancestor opened) and shows it.
function revealInTree(r, id) {
  const index = relationIndex(state.a, r);
  const path = [id];
  for (let at = id, guard = 0; guard < state.a.entities.length; guard++) {
    const k = state.a.byId.get(at);
    const v = k === undefined ? null : state.a.entities[k][r.name];
    if (!v || typeof v.target !== "string") break;
    at = v.target;
    path.unshift(at);
  }
  let list = $("relation-trees").querySelector(`[data-relation="${r.name}"] > ul`);
  let node = null;
  for (const step of path) {
    if (!list) break;
    node = [...list.children].find((li) => li.dataset.id === step) || null;
    while (!node && list.lastElementChild && list.lastElementChild.querySelector("button.more")) {
      list.lastElementChild.querySelector("button.more").click();
      node = [...list.children].find((li) => li.dataset.id === step) || null;
    }
    if (!node) break;
    const details = node.querySelector(":scope > details");
    if (details && step !== id) {
      details.open = true;
      if (!details.querySelector("ul")) details.append(treeList(r, index, index.sources.get(step) || []));
      list = details.querySelector(":scope > ul");
    }
  }
  if (node) {
    node.classList.add("found");
    node.scrollIntoView();
  }
  return node;
}

// ---- diff: entities matched by id, values by path (as `ecsgen-dump diff`) ------------------

function same(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b && (a !== 0 || 1 / a === 1 / b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => same(x, b[k]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

function diffValue(path, a, b, out, id) {
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const join = (k) => (path ? `${path}.${k}` : k);
  if (isObj(a) && isObj(b)) {
    for (const k of Object.keys(a)) {
      if (!has(b, k)) out.push({ kind: "removed", path: join(k), text: `${join(k)}: removed ${toText(a[k])}`, id });
      else diffValue(join(k), a[k], b[k], out, id);
    }
    for (const k of Object.keys(b)) if (!has(a, k)) out.push({ kind: "added", path: join(k), text: `${join(k)}: added ${toText(b[k])}`, id });
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, k) => diffValue(`${path}[${k}]`, x, b[k], out, id));
  } else if (!same(a, b)) {
    out.push({ kind: "changed", path, text: `${path}: ${toText(a)} -> ${toText(b)}`, id });
  }
}

function computeDiff(a, b) {
  const lines = [];
  const rest = (doc) => Object.fromEntries(Object.entries(doc).filter(([k]) => k !== "entities"));
  diffValue("", rest(a.doc), rest(b.doc), lines, null);
  const ids = new Set([...a.byId.keys(), ...b.byId.keys()]);
  const sorted = [...ids].map((id) => [id, ...idKey(id)]).sort((x, y) => x[1] - y[1] || x[2] - y[2]);
  const summary = { added: 0, removed: 0, changed: 0, fields: 0, other: lines.length };
  const content = (e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "id"));
  for (const [id] of sorted) {
    const path = `entities[${id}]`;
    const x = a.byId.has(id) ? a.entities[a.byId.get(id)] : null;
    const y = b.byId.has(id) ? b.entities[b.byId.get(id)] : null;
    if (!y) {
      summary.removed++;
      lines.push({ kind: "removed", path, text: `${path}: removed ${toText(content(x))}`, id, entity: true });
    } else if (!x) {
      summary.added++;
      lines.push({ kind: "added", path, text: `${path}: added ${toText(content(y))}`, id, entity: true });
    } else {
      const before = lines.length;
      diffValue(path, content(x), content(y), lines, id);
      if (lines.length > before) {
        summary.changed++;
        summary.fields += lines.length - before;
      }
    }
  }
  return { lines, summary };
}

function renderDiff() {
  const section = $("diff");
  const diff = state.diff;
  if (!diff) {
    section.hidden = true;
    return;
  }
  const s = diff.summary;
  $("diff-files").textContent = `${state.a.name} → ${state.b.name}`;
  $("diff-summary").textContent = diff.lines.length === 0 ? "The dumps are the same." :
    `${s.added} entities added, ${s.removed} removed, ${s.changed} changed (${s.fields} values); ${s.other} other differences (header, singletons).`;
  const pages = Math.max(1, Math.ceil(diff.lines.length / DIFF_PAGE));
  const start = state.diffPage * DIFF_PAGE;
  const list = $("diff-lines");
  list.textContent = "";
  list.start = start + 1;
  for (const line of diff.lines.slice(start, start + DIFF_PAGE)) {
    const li = el("li", { class: line.kind, "data-kind": line.kind });
    if (line.id) {
      // a recording's diff runs from state.b (the earlier frame) to state.a (the one shown)
      const slot = line.entity && line.kind === (state.recording ? "removed" : "added") ? "b" : "a";
      const cut = line.text.indexOf(line.id);
      li.append(line.text.slice(0, cut), entityLink(line.id, slot), line.text.slice(cut + line.id.length));
    } else {
      li.textContent = line.text;
    }
    list.append(li);
  }
  renderPager($("diff-pager"), state.diffPage, pages, `${diff.lines.length} differences`, (p) => {
    state.diffPage = p;
    renderDiff();
  }, false);
  section.hidden = false;
}

// ---- navigation and events -----------------------------------------------------------------

// #e=5v0 shows entity 5v0 of the open dump, #b=5v0 of the compared one: links and Back work.
function routeHash() {
  const m = /^#([eb])=(.+)$/.exec(location.hash);
  if (m && state.a) showEntity(decodeURIComponent(m[2]), m[1] === "b" ? "b" : "a");
}

function init() {
  $("schema-name").textContent = META.name;
  document.title = `${META.name} world inspector`;
  $("file-a").addEventListener("change", (ev) => openFile("a", ev.target.files[0]));
  $("file-b").addEventListener("change", (ev) => {
    if (!state.a) showError("Open a dump first, then compare it with another.");
    else openFile("b", ev.target.files[0]);
  });
  $("timeline-slider").addEventListener("input", (ev) => showFrame(Number(ev.target.value)));
  $("timeline-prev").addEventListener("click", () => state.recording && showFrame(state.recording.frame - 1));
  $("timeline-next").addEventListener("click", () => state.recording && showFrame(state.recording.frame + 1));
  $("timeline-against").addEventListener("change", (ev) => {
    if (!state.recording) return;
    const v = ev.target.value.trim();
    const j = Number(v);
    showFrame(state.recording.frame, v === "" || !Number.isInteger(j) || j < 0 || j >= state.recording.frames.length ? undefined : j);
  });
  $("filter-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    applyFilter();
  });
  $("entity-close").addEventListener("click", (ev) => {
    ev.preventDefault();
    $("entity").hidden = true;
    history.pushState(null, "", location.pathname + location.search);
  });
  window.addEventListener("hashchange", routeHash);
  renderColumnChooser();
  renderSchedule();
  let depth = 0;
  document.addEventListener("dragenter", (ev) => {
    ev.preventDefault();
    depth++;
    $("drop").hidden = false;
  });
  document.addEventListener("dragleave", () => {
    if (--depth <= 0) $("drop").hidden = true;
  });
  document.addEventListener("dragover", (ev) => ev.preventDefault());
  document.addEventListener("drop", (ev) => {
    ev.preventDefault();
    depth = 0;
    $("drop").hidden = true;
    const file = ev.dataTransfer && ev.dataTransfer.files[0];
    const slot = ev.target.closest && ev.target.closest("#open-b") && state.a ? "b" : "a";
    openFile(slot, file);
  });
  const params = new URLSearchParams(location.search);
  if (params.has("filter")) $("filter").value = params.get("filter");
  if (params.has("dump")) {
    openUrl("a", params.get("dump")).then((ok) => {
      if (ok && params.has("compare")) openUrl("b", params.get("compare"));
    });
  }
}

init();
