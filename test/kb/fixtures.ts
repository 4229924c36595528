/** A small mixed English/Chinese folder, the kind of notes a user keeps. */
export const STDIO_GUIDE = `# Writing an MCP server

Notes for people who build their own Model Context Protocol servers.

## Transport

### Standard output

A stdio server must write only JSON-RPC messages to standard output. Any stray print statement
corrupts the stream and the client drops the connection with a parse error.

### Logging

Send logs to standard error instead. mcpterm keeps each server's stderr so you can read it later.

## Tool schemas

Describe every argument with a JSON Schema: type, description and required fields. Models fill
arguments better when each property says what it is for.
`;

export const RISK_GUIDE_ZH = `# 风险等级

mcpterm 把每个工具分为四个风险等级。

## 只读工具

只读工具（read_only）只查询数据，可以自动运行，不需要确认。

## 危险操作

危险工具（dangerous）会修改配置、删除数据或者执行命令。每次调用之前，终端都会询问用户是否批准，模型不能自己决定。

## 外部工具

外部工具会访问外部系统或者把数据发送出去，同样需要用户批准。
`;

export const FETCH_NOTES = `Fetching web pages

Fetch the page, convert the HTML to Markdown, and drop navigation, cookie banners and footers
before summarizing.

Summaries should quote the numbers and names from the page and link back to the source URL.

Respect robots.txt and rate limits; cache pages you fetched recently.
`;

export const CONFIG_SNIPPET = `{
  "mcpServers": {
    "filesystem": { "command": "node", "args": ["server.js", "."] }
  },
  "approval": { "auto": ["read_only"] }
}
`;
