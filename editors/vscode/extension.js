// The VS Code side of outflank: recognises outflank's `.rules` files (see detect.js), and
// starts `outflank lsp` for them, which does everything else (diagnostics, hover, ...).
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { isOutflankRules } = require("./detect");

const LANGUAGE = "outflank-rules";
let client;

function claim(document) {
  if (
    document.languageId !== LANGUAGE &&
    document.uri.path.endsWith(".rules") &&
    isOutflankRules(document.getText())
  ) {
    vscode.languages.setTextDocumentLanguage(document, LANGUAGE);
  }
}

function activate(context) {
  vscode.workspace.textDocuments.forEach(claim);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(claim));
  const command = vscode.workspace.getConfiguration("outflank").get("path") || "outflank";
  client = new LanguageClient(
    "outflank",
    "outflank",
    { command, args: ["lsp"] },
    { documentSelector: [{ language: LANGUAGE }] }
  );
  // The server lists its command (running an example from its code lens) at start-up; the
  // client registers it, and VS Code sends it back to the server when the lens is clicked.
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
