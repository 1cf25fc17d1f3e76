// Drives the scene example's inspector page (examples/scene.json: child_of, follows) in
// headless Chromium: the tree of each relation (roots, counts, expand/collapse) and the links
// both ways (a node to its entity, an entity to its place in the tree). Run by
// test_relations_page.py, which prepares DIR: scene_inspector.html and scene_before.json.
//
//     node drive_relations.mjs DIR [--screenshot FILE.png]
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import puppeteer from "puppeteer-core";

const dir = process.argv[2];
const shotAt = process.argv.indexOf("--screenshot");
const screenshot = shotAt > 0 ? process.argv[shotAt + 1] : null;
const server = http.createServer((req, res) => {
  const name = path.basename(decodeURIComponent(new URL(req.url, "http://x").pathname));
  fs.readFile(path.join(dir, name), (err, data) => {
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
const base = `http://127.0.0.1:${server.address().port}/scene_inspector.html`;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${base}?dump=scene_before.json`);
  await page.waitForSelector("#relations:not([hidden])");
  const tree = (r) => `#relation-trees [data-relation="${r}"]`;
  // child_of: one root, the sun (0v0): 2 planets below it, 3 entities in all.
  const roots = await page.$$eval(`${tree("child_of")} > ul > li`, (lis) => lis.map((li) => li.dataset.id));
  assert.deepEqual(roots, ["0v0"]);
  assert.match(await page.$eval(`${tree("child_of")} h3`, (n) => n.textContent), /3 entities point at 2; 1 root$/);
  assert.match(await page.$eval(`${tree("child_of")} li[data-id="0v0"] summary`, (n) => n.textContent), /0v0 2 direct, 3 in all/);
  // closed: its sources are not made yet; opened: the planets, earth (1v0) with the moon
  assert.equal(await page.$(`${tree("child_of")} li[data-id="1v0"]`), null);
  await page.$eval(`${tree("child_of")} li[data-id="0v0"] > details`, (d) => { d.open = true; });
  await page.waitForSelector(`${tree("child_of")} li[data-id="1v0"]`);
  const planets = await page.$$eval(`${tree("child_of")} li[data-id="0v0"] > details > ul > li`, (lis) => lis.map((li) => li.dataset.id));
  assert.deepEqual(planets, ["1v0", "2v0"]);
  assert.match(await page.$eval(`${tree("child_of")} li[data-id="1v0"] summary`, (n) => n.textContent), /1 direct, 1 in all/);
  assert.ok(await page.$(`${tree("child_of")} li.leaf[data-id="2v0"]`), "mars has no sources: a leaf");
  // collapse again: the planets are hidden
  await page.$eval(`${tree("child_of")} li[data-id="0v0"] > details`, (d) => { d.open = false; });
  assert.equal(await page.$eval(`${tree("child_of")} li[data-id="1v0"]`, (n) => n.checkVisibility()), false, "collapsed: hidden");
  // follows (clear): the camera (4v0) follows the moon (3v0), the root
  const followed = await page.$$eval(`${tree("follows")} > ul > li`, (lis) => lis.map((li) => li.dataset.id));
  assert.deepEqual(followed, ["3v0"]);
  assert.match(await page.$eval(`${tree("follows")} h3`, (n) => n.textContent), /on_target_destroy: clear/);
  // a node links to its entity; the entity view links back into the tree
  await page.$eval(`${tree("follows")} li[data-id="3v0"] a.ref`, (a) => a.click());
  await page.waitForSelector("#entity:not([hidden])");
  assert.equal(await page.$eval("#entity-id", (n) => n.textContent), "3v0");
  const line = await page.$eval('#entity-body .relation-links[data-relation="child_of"]', (n) => n.textContent);
  assert.match(line, /child_of: points at 1v0; 0 point at it/);
  assert.match(await page.$eval('#entity-body .relation-links[data-relation="follows"]', (n) => n.textContent), /1 points at it \(4v0\)/);
  await page.$eval('#entity-body a.in-tree[data-relation="child_of"]', (a) => a.click());
  await page.waitForSelector(`${tree("child_of")} li.found[data-id="3v0"]`);
  assert.equal(await page.$eval(`${tree("child_of")} li[data-id="3v0"]`, (n) => n.checkVisibility()), true, "the moon shown, its ancestors open");
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  assert.deepEqual(pageErrors, []);
  console.log("drive_relations: relation trees, counts, expand/collapse and links both ways: ok");
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
