"""Writes a copy of a schema with every per-entity data component in "layout": "struct"
(tags and singletons have no layout), so the soa tests run on the other layout too."""
import json
import sys

document = json.load(open(sys.argv[1], encoding="utf-8"))
document.pop("$schema", None)
for spec in document["components"].values():
    if not spec.get("tag") and not spec.get("singleton"):
        spec["layout"] = "struct"
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")
