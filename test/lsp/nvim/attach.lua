-- Neovim (0.7.2, headless) attaches `stratumc lsp` to a spec, waits for its diagnostics, asks for a
-- completion and a hover, and writes what it got as one JSON line to standard output.
-- Parameters come from the environment (luafile takes no arguments):
--   STRATUMC_BIN      path of bin/stratumc.cjs
--   STRATUMC_SPEC     the spec file to edit
--   COMPLETE_AT       "line,character" (0-based, UTF-16) of the completion request
--   HOVER_AT          "line,character" of the hover request
local function position(name)
  local line, character = string.match(vim.env[name], "^(%d+),(%d+)$")
  return { line = tonumber(line), character = tonumber(character) }
end

local function finish(result)
  io.stdout:write(vim.fn.json_encode(result) .. "\n")
  vim.cmd("qa!")
end

local server_exit = nil
local client_id = vim.lsp.start_client({
  name = "stratumc",
  on_exit = function(code)
    server_exit = code
  end,
  cmd = { "node", vim.env.STRATUMC_BIN, "lsp" },
  root_dir = vim.fn.fnamemodify(vim.env.STRATUMC_SPEC, ":h"),
})
if client_id == nil then
  finish({ error = "start_client failed" })
  return
end

vim.cmd("edit " .. vim.fn.fnameescape(vim.env.STRATUMC_SPEC))
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

local got = vim.wait(20000, function()
  return #vim.diagnostic.get(bufnr) > 0 or server_exit ~= nil
end, 20)
if server_exit ~= nil then
  finish({ error = "the server exited with " .. tostring(server_exit) .. " (see :LspLog)" })
  return
end
if not got then
  finish({ error = "no diagnostics within 20 s" })
  return
end

local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(diagnostics, {
    lnum = d.lnum,
    col = d.col,
    end_lnum = d.end_lnum,
    end_col = d.end_col,
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = lsp.code or d.code,
  })
end
table.sort(diagnostics, function(a, b)
  return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
end)

local client = vim.lsp.get_client_by_id(client_id)
local uri = vim.uri_from_bufnr(bufnr)
local completion = client.request_sync(
  "textDocument/completion",
  { textDocument = { uri = uri }, position = position("COMPLETE_AT") },
  10000,
  bufnr
)
local hover = client.request_sync(
  "textDocument/hover",
  { textDocument = { uri = uri }, position = position("HOVER_AT") },
  10000,
  bufnr
)

local labels = {}
local items = completion and completion.result and (completion.result.items or completion.result) or {}
for _, item in ipairs(items) do
  table.insert(labels, item.label)
end

finish({
  diagnostics = diagnostics,
  completion = labels,
  completion_error = completion and completion.err and completion.err.message or vim.NIL,
  hover = hover and hover.result and hover.result.contents and hover.result.contents.value or vim.NIL,
  hover_error = hover and hover.err and hover.err.message or vim.NIL,
})
