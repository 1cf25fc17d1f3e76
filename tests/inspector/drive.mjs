// Drives the world inspector page in headless Chromium and checks what it shows. Run by
// test_inspector.py, which prepares DIR: game_inspector.html, a.json and b.json (make_worlds,
// 100k entities), c.json and d.json (the same, 2000), diff.txt (`ecsgen-dump diff c.json
// d.json`), demo.json (examples/demo --save), other.json (a dump of another schema), broken.json (a truncated dump).
//
//     node drive.mjs DIR [--screenshot FILE.png]
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import puppeteer from "puppeteer-core";

const dir = process.argv[2];
const shotAt = process.argv.indexOf("--screenshot");
const screenshot = shotAt > 0 ? process.argv[shotAt + 1] : null;
const file = (name) => path.join(dir, name);

// The page is served from DIR (fetch of ?dump= is refused on file:// pages).
const server = http.createServer((req, res) => {
  const name = path.basename(decodeURIComponent(new URL(req.url, "http://x").pathname));
  fs.readFile(file(name), (err, data) => {
    if (err) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": name.endsWith(".html") ? "text/html; charset=utf-8" : "application/json" });
    res.end(data);
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}/game_inspector.html`;

// What the page must show, worked out here from the dump itself.
const a = JSON.parse(fs.readFileSync(file("a.json"), "utf8"));
const byId = (x, y) => x.id.split("v")[0] - y.id.split("v")[0] || x.id.split("v")[1] - y.id.split("v")[1];
const lowHealth = a.entities.filter((e) => e.health && e.health.current < 10).sort(byId);
const players = a.entities.filter((e) => e.player).length;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(base);
  const text = (selector) => page.$eval(selector, (n) => n.textContent);
  const visible = (selector) => page.$eval(selector, (n) => !n.hidden);
  const rowIds = () => page.$$eval("#table tbody tr", (rows) => rows.map((r) => r.dataset.id));
  const column = (name) => page.$eval("#table thead", (head, name) => {
    const th = [...head.querySelectorAll("th[data-column]")].find((t) => t.title.startsWith(name + ":"));
    return Number(th.dataset.column);
  }, name);
  const cells = (index) => page.$$eval("#table tbody tr", (rows, index) => rows.map((r) => r.cells[index].textContent), index);
  const filter = async (query) => {
    await page.$eval("#filter", (input, query) => { input.value = query; }, query);
    await page.click("#filter-form button");
  };
  assert.equal(await page.title(), "game world inspector");

  // The schedule, shown before any dump: stage columns of system boxes, sync marks, and why
  // each pair is kept apart (the generator's schedule, as in --docs).
  assert.equal(await page.$eval("#schedule", (s) => s.hidden), false);
  assert.deepEqual(await page.$$eval("#stages .stage", (cols) => cols.map((c) =>
    [...c.querySelectorAll(".system")].map((x) => x.dataset.system))), [["fire"], ["move", "expire"], ["collide"]]);
  assert.equal(await page.$$eval("#stages .sync", (s) => s.length), 3);
  assert.match(await text('#stages .system[data-system="collide"]'), /writes health, stats.*spawns, destroys/s);
  const apart = await page.$$eval("#apart tbody tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(apart.length, 5);
  assert.deepEqual(apart[0], ["fire", "move", "fire reads position, move writes it; fire spawns (a spawning system runs alone)"]);

  // Open the 100k-entity dump and filter it: the time is reported, not asserted.
  const started = Date.now();
  await (await page.$("#file-a")).uploadFile(file("a.json"));
  await page.waitForFunction(() => /entities, schema/.test(document.getElementById("status").textContent), { timeout: 30000 });
  const opened = Date.now();
  await filter("has:health health.current<10");
  await page.waitForFunction((want) => document.getElementById("filter-count").textContent === want, { timeout: 30000 },
    `${lowHealth.length} of ${a.entities.length} entities match`);
  const filtered = Date.now();
  console.log(`open ${a.entities.length} entities to a filtered table: ${filtered - started} ms ` +
    `(reading ${opened - started} ms, filter ${filtered - opened} ms); page says: ${await text("#status")}`);
  assert.equal(await text("#filter-count"), `${lowHealth.length} of ${a.entities.length} entities match`);
  let ids = await rowIds();
  assert.equal(ids.length, 50);
  assert.deepEqual(ids, lowHealth.slice(0, 50).map((e) => e.id));
  const current = await column("health.current");
  assert.ok((await cells(current)).every((v) => Number(v) < 10));

  // Counts and the chart.
  assert.equal(await page.$eval('#chart g[data-component="player"]', (g) => g.dataset.count), String(players));
  assert.equal(await page.$eval('#chart g[data-component="position"]', (g) => g.dataset.count), String(a.entities.length));
  assert.match(await text("#singletons"), /clock.*frame.*u64\s*1/s);

  // Sorting (descending health.current, absent last) and paging.
  await page.click(`#table thead th[data-column="${current}"]`);
  await page.click(`#table thead th[data-column="${current}"]`);
  const sorted = lowHealth.map((e) => e.health.current).sort((x, y) => y - x);
  assert.deepEqual((await cells(current)).map(Number), sorted.slice(0, 50));
  await page.click('#pager button[data-page="next"]');
  assert.match(await text("#pager"), /page 2 of \d+, rows 51–100/);
  assert.deepEqual((await cells(current)).map(Number), sorted.slice(50, 100));

  // Filter language: more terms, an enum, a string, an array element, and a clear error.
  await filter('has:player mood.state=flee name.value~"ship-1"');
  const flee = a.entities.filter((e) => e.player && e.mood.state === "flee" && e.name.value.includes("ship-1"));
  assert.equal(await text("#filter-count"), `${flee.length} of ${a.entities.length} entities match`);
  await filter("cargo.items[7]>=65500 !has:frozen");
  const cargo = a.entities.filter((e) => e.cargo && e.cargo.items[7] >= 65500 && !e.frozen);
  assert.ok(cargo.length > 0);
  assert.deepEqual(await rowIds(), cargo.sort(byId).map((e) => e.id));
  await filter("healt.current<10");
  assert.equal(await text("#filter-error"), 'healt.current<10: no component "healt" (did you mean health?)');
  await filter("mood.state=angry");
  assert.match(await text("#filter-error"), /"angry" is not one of idle, chase, flee/);

  // Opening an entity: every component with field names, types, enum names and doc strings.
  await filter("id=4v0");
  assert.deepEqual(await rowIds(), ["4v0"]);
  await page.click('#table tbody tr[data-id="4v0"] a');
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "4v0");
  const entity = await text("#entity-body");
  for (const part of ["World position in metres", "ship-4", "enum { idle, chase, flee }", "chase", "What this entity chases or aims at", "f32", "char[32]"])
    assert.ok(entity.includes(part), `entity view lacks ${part}: ${entity}`);
  assert.deepEqual(await page.$$eval("#entity-body .card", (cards) => cards.map((c) => c.dataset.component)),
    Object.keys(a.entities.find((e) => e.id === "4v0")).filter((k) => k !== "id"));
  // Following a reference: ship 4 targets slot 29, an asteroid that knows who points at it.
  await page.click('#entity-body .card[data-component="target"] a.ref');
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "29v0");
  assert.deepEqual(await page.$$eval("#entity-body .card", (cards) => cards.map((c) => c.dataset.component)),
    ["position", "velocity", "health", "radius", "asteroid"]);
  assert.match(await text("#entity-body .referenced-by"), /4v0 target\.entity/);
  await page.goBack();
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "4v0");
  // A reference to a destroyed entity (ship 0 targets slot 1) is marked stale, not a link.
  await page.evaluate(() => { location.hash = "#e=0v0"; });
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "0v0");
  assert.equal(await text('#entity-body .card[data-component="target"] .stale'), "1v0 (stale)");

  // The entity view sits beside the table, in view without scrolling.
  const box = (selector) => page.$eval(selector, (n) => { const r = n.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; });
  const [entityBox, tableBox] = [await box("#entity"), await box("#entities")];
  assert.ok(entityBox.left >= tableBox.right - 1 && entityBox.top >= 0 && entityBox.top < 900, JSON.stringify({ entityBox, tableBox }));
  // The id column stays put while the table scrolls sideways.
  await filter("");
  const wide = await page.$eval(".table-wrap", (w) => w.scrollWidth > w.clientWidth + 200);
  assert.ok(wide, "the table should be wider than its box here");
  const idLeft = () => page.$eval(".table-wrap", (w) => [w.getBoundingClientRect().left,
    w.querySelector("tbody td.id-col").getBoundingClientRect().left, w.querySelector("thead th.id-col").getBoundingClientRect().left]);
  const [wrapLeft, cellLeft] = await idLeft();
  await page.$eval(".table-wrap", (w) => { w.scrollLeft = w.scrollWidth; });
  const [, cellAfter, headAfter] = await idLeft();
  assert.ok(await page.$eval(".table-wrap", (w) => w.scrollLeft > 200));
  assert.ok(Math.abs(cellAfter - cellLeft) < 2 && Math.abs(headAfter - wrapLeft) < 3, JSON.stringify({ wrapLeft, cellLeft, cellAfter, headAfter }));
  assert.equal(await page.$eval("tbody td.id-col", (td) => getComputedStyle(td).position), "sticky");
  // The column chooser: hide a component's columns, then all, then show them again.
  const headTitles = () => page.$$eval("#table thead th[data-column]", (ths) => ths.map((t) => t.title));
  assert.ok((await headTitles()).some((t) => t.startsWith("position.")));
  await page.click("#columns summary");
  await page.click('#column-list input[data-component="position"]');
  assert.ok(!(await headTitles()).some((t) => t.startsWith("position.")));
  assert.ok((await headTitles()).some((t) => t.startsWith("velocity.")));
  assert.match(await text("#columns-count"), /^\d+ of \d+ components$/);
  await page.click('#column-list button[data-columns="none"]');
  assert.deepEqual(await headTitles(), ["entity id"]);
  assert.equal(await page.$$eval("#table tbody tr:first-child td", (tds) => tds.length), 1);
  await page.click('#column-list button[data-columns="all"]');
  assert.ok((await headTitles()).some((t) => t.startsWith("position.")));
  assert.equal(await page.$eval('#column-list input[data-component="position"]', (b) => b.checked), true);

  // Diff: open a second dump; lines as `ecsgen-dump diff` prints them (entities by id).
  await (await page.$("#file-b")).uploadFile(file("b.json"));
  await page.waitForFunction(() => !document.getElementById("diff").hidden, { timeout: 30000 });
  assert.equal(await text("#diff-summary"), "2 entities added, 3 removed, 1 changed (1 values); 1 other differences (header, singletons).");
  const lines = await page.$$eval("#diff-lines li", (items) => items.map((li) => li.textContent));
  assert.equal(lines.length, 7);
  assert.ok(lines.includes("entities[40v0].health.current: 40 -> -5"));
  assert.ok(lines.includes("singletons.clock.frame: 1 -> 2"));
  await page.evaluate(() => { location.hash = "#e=40v0"; });
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "40v0");
  assert.equal(await text('#entity-body .card[data-component="health"] td.changed'), "40 → -5");
  const added = await page.$eval('#diff-lines li.added a', (link) => link.textContent);
  await page.click('#diff-lines li.added a');
  await page.waitForFunction((id) => document.getElementById("entity-id").textContent === `${id} (in b.json)`, {}, added);

  // Bad input: a dump of another schema, a malformed file; the open dump stays.
  await (await page.$("#file-a")).uploadFile(file("other.json"));
  await page.waitForFunction(() => !document.getElementById("error").hidden);
  assert.equal(await text("#error"), 'other.json: schema: this is a dump of schema "server"; this page inspects schema "game". ' +
    "Open it with that schema's page (ecsgen server.json --inspector FILE). (still showing a.json)");
  await (await page.$("#file-a")).uploadFile(file("broken.json"));
  await page.waitForFunction(() => /broken\.json/.test(document.getElementById("error").textContent));
  assert.match(await text("#error"), /^broken\.json: malformed JSON: .+ \(still showing a\.json\)$/);

  // Nesting deeper than a load reads (3000 arrays in a field): a clear message, not a page
  // left at "reading…" by a stack overflow.
  await (await page.$("#file-a")).uploadFile(file("deep.json"));
  await page.waitForFunction(() => /deep\.json/.test(document.getElementById("error").textContent));
  assert.equal(await text("#error"), "deep.json: malformed JSON: nested deeper than 1000 levels (a load refuses it) (still showing a.json)");
  assert.doesNotMatch(await text("#status"), /reading…/);

  // ?dump= and ?compare= next to the page, with a filter in the address; the small pair's
  // diff lines are exactly those of `ecsgen-dump diff` (same semantics: entities by id).
  await page.goto(`${base}?dump=c.json&compare=d.json&filter=has:player`);
  await page.waitForFunction(() => !document.getElementById("diff").hidden, { timeout: 30000 });
  const c = JSON.parse(fs.readFileSync(file("c.json"), "utf8"));
  assert.equal(await text("#filter-count"), `${c.entities.filter((e) => e.player).length} of ${c.entities.length} entities match`);
  assert.deepEqual(await page.$$eval("#diff-lines li", (items) => items.map((li) => li.textContent)),
    fs.readFileSync(file("diff.txt"), "utf8").trimEnd().split("\n"));
  assert.equal(await visible("#error"), false);

  // Drag and drop: a dump dropped on "Compare with…" is diffed, anywhere else it is opened.
  const drop = (name, selector) => page.evaluate(async (name, selector) => {
    const data = new DataTransfer();
    data.items.add(new File([await (await fetch(name)).text()], name, { type: "application/json" }));
    document.querySelector(selector).dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, name, selector);
  await drop("d.json", "#open-b");
  await page.waitForFunction(() => document.getElementById("diff-files").textContent === "c.json → d.json");
  await drop("d.json", "main");
  await page.waitForFunction(() => document.getElementById("entity-total").textContent.endsWith(" entities in d.json"));
  assert.equal(await text("#diff-summary"), "The dumps are the same.");

  // The demo's own save opens (README's tour).
  await page.goto(`${base}?dump=demo.json`);
  await page.waitForFunction(() => /^demo\.json: \d+ entities/.test(document.getElementById("status").textContent), { timeout: 30000 });
  const demo = JSON.parse(fs.readFileSync(file("demo.json"), "utf8"));
  assert.equal(await text("#filter-count"), `${demo.entities.length} of ${demo.entities.length} entities match`);
  assert.equal(await visible("#error"), false);

  // Components named constructor, toString, hasOwnProperty (Object.prototype's names): counted,
  // filtered and diffed by the dump's own keys; the diff is ecsgen-dump's.
  const protoBase = base.replace("game_inspector.html", "proto_inspector.html");
  await page.goto(`${protoBase}?dump=proto_a.json&compare=proto_b.json`);
  await page.waitForFunction(() => !document.getElementById("diff").hidden, { timeout: 30000 });
  assert.deepEqual(await page.$$eval("#chart g", (gs) => gs.map((g) => `${g.dataset.component}=${g.dataset.count}`)),
    ["constructor=0", "toString=1", "hasOwnProperty=1"]);
  for (const [query, want] of [["has:constructor", "0 of 3"], ["has:toString", "1 of 3"], ["toString.valueOf=1", "1 of 3"],
    ["!has:hasOwnProperty", "2 of 3"]]) {
    await filter(query);
    assert.equal(await text("#filter-count"), `${want} entities match`, query);
  }
  assert.deepEqual(await page.$$eval("#diff-lines li", (items) => items.map((li) => li.textContent)),
    fs.readFileSync(file("proto_diff.txt"), "utf8").trimEnd().split("\n"));
  await page.evaluate(() => { location.hash = "#e=1v0"; });
  await page.waitForFunction(() => document.getElementById("entity-id").textContent === "1v0");
  assert.equal(await text("#entity-body p"), "In proto_b.json: changed fields are marked (A → B).");
  assert.deepEqual(await page.$$eval("#entity-body .card", (cards) => cards.map((c) => c.dataset.component)), []);

  // A recording of the demo's last 300 frames (demo --record): the timeline opens at the
  // newest frame, which is the demo's final save; stepping back shows each frame and what
  // changed since the one before (rows marked, the diff listed); any two frames diff.
  await page.goto(`${base}?dump=rec.json`);
  await page.waitForFunction(() => !document.getElementById("timeline").hidden, { timeout: 60000 });
  const last = JSON.parse(fs.readFileSync(file("rec_last.json"), "utf8"));
  const timeline = () => page.evaluate(() => ({
    slider: document.getElementById("timeline-slider").value, max: document.getElementById("timeline-slider").max,
    frame: document.getElementById("timeline-frame").textContent, total: document.getElementById("entity-total").textContent,
    summary: document.getElementById("diff-summary").textContent, files: document.getElementById("diff-files").textContent,
    marked: document.querySelectorAll("#table tbody tr.changed").length,
    clock: document.getElementById("singletons").textContent, diffHidden: document.getElementById("diff").hidden,
  }));
  let t = await timeline();
  assert.equal(t.max, "299");
  assert.equal(t.slider, "299");
  assert.equal(t.frame, "frame 299 of 299");
  assert.ok(t.total.startsWith(`${last.entities.length} entities`), t.total);
  assert.ok(t.clock.includes(String(last.singletons.clock.frame)), t.clock);
  assert.equal(t.files, "rec.json frame 298 → rec.json frame 299");
  assert.match(t.summary, /changed/);
  assert.ok(t.marked > 0, "changed rows are marked");
  for (let k = 298; k >= 290; k--) { // step back through the timeline
    await page.click("#timeline-prev");
    await page.waitForFunction((want) => document.getElementById("timeline-frame").textContent === want, {}, `frame ${k} of 299`);
    t = await timeline();
    assert.equal(t.files, `rec.json frame ${k - 1} → rec.json frame ${k}`);
    assert.ok(t.clock.includes(String(last.singletons.clock.frame - (299 - k))), t.clock);
  }
  await page.$eval("#timeline-slider", (s) => { s.value = "0"; s.dispatchEvent(new Event("input")); });
  await page.waitForFunction(() => document.getElementById("timeline-frame").textContent === "frame 0 of 299");
  t = await timeline();
  assert.equal(t.diffHidden, true, "frame 0 has no frame before");
  await page.$eval("#timeline-slider", (s) => { s.value = "150"; s.dispatchEvent(new Event("input")); });
  await page.$eval("#timeline-against", (s) => { s.value = "10"; s.dispatchEvent(new Event("change")); });
  await page.waitForFunction(() => document.getElementById("diff-files").textContent === "rec.json frame 10 → rec.json frame 150");
  assert.match(await page.$eval("#diff-lines", (l) => l.textContent), /singletons\.clock\.frame: \d+ -> \d+/);

  // A page opened from a file cannot fetch ?dump= (browsers forbid it): it says what to do.
  await page.goto(`file://${file("game_inspector.html")}?dump=a.json`);
  await page.waitForFunction(() => !document.getElementById("error").hidden);
  assert.match(await text("#error"), /^a\.json: cannot fetch it from a file:\/\/ page .*serve the directory/);

  if (screenshot) {
    await page.setViewport({ width: 1280, height: 1000 });
    await page.goto(`${base}?dump=a.json&compare=b.json&filter=${encodeURIComponent("has:player health.current<2 id.index<2000")}`);
    await page.waitForFunction(() => !document.getElementById("diff").hidden, { timeout: 30000 });
    await page.evaluate(() => { location.hash = "#e=4v0"; });
    await page.waitForFunction(() => document.getElementById("entity-id").textContent === "4v0");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`screenshot: ${screenshot}`);
  }
  assert.deepEqual(pageErrors, []);
  console.log("inspector: all checks passed");
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
