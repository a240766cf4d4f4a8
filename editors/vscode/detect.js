// Which `.rules` files are outflank's. The extension is shared with udev (and others), so
// the extension alone says nothing: a file is taken as outflank's when its first line is a
// `// outflank` header, or when its first word outside comments opens an outflank item
// (`title`, `extends`, `param`, `board`, ...). A udev file opens with `#` comments and keys
// such as `ACTION==` or `KERNEL==`, which no outflank item starts with.
"use strict";

const ITEM_WORDS = [
  "extends", "title", "source", "credit", "param", "set", "board", "removed", "player",
  "piece", "first", "region", "setup", "line", "def", "token", "counter", "directions",
  "turn", "agreement", "end", "score", "tiebreak", "example",
];

function isOutflankRules(text) {
  if (/^\s*\/\/\s*outflank\b/.test(text)) {
    return true;
  }
  for (const raw of text.split(/\r?\n|\r/).slice(0, 200)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("//")) {
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(line);
    return word !== null && ITEM_WORDS.includes(word[0]) && /^[A-Za-z_]+(\s|$|")/.test(line);
  }
  return false;
}

module.exports = { isOutflankRules, ITEM_WORDS };
