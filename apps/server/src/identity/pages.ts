import { createHash } from 'node:crypto';

/** Everything interpolated into the pages goes through here. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f0f2f5;
font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Hiragino Sans GB","Microsoft YaHei",sans-serif;color:#1f2329}
main{width:360px;max-width:calc(100vw - 32px);background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:32px}
.brand{margin:0 0 4px;font-size:14px;color:#1677ff;text-align:center;letter-spacing:2px}
h1{margin:0 0 24px;font-size:22px;font-weight:600;text-align:center}
label{display:block;margin:0 0 6px;font-size:14px}
input{width:100%;height:40px;margin:0 0 16px;padding:0 12px;border:1px solid #d9d9d9;border-radius:6px;font-size:15px}
input:focus{outline:none;border-color:#1677ff;box-shadow:0 0 0 2px rgba(22,119,255,.2)}
button{width:100%;height:40px;border:0;border-radius:6px;background:#1677ff;color:#fff;font-size:16px;cursor:pointer}
button:hover{background:#4096ff}
.error{margin:0 0 16px;padding:8px 12px;border:1px solid #ffccc7;border-radius:6px;background:#fff2f0;color:#cf1322;font-size:14px}
p{line-height:1.6}
a{color:#1677ff}
`;

const SCRIPT_SUBMIT = 'document.forms[0].submit();';

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** The pages' CSP: nothing but their own inline style (and the auto-submit script where used). */
export function pageCsp(formActions: string[] = [], withScript = false): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    withScript ? `script-src ${sha256(SCRIPT_SUBMIT)}` : null,
    `form-action 'self'${formActions.map((o) => ` ${o}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]
    .filter(Boolean)
    .join('; ');
}

function layout(title: string, productName: string, body: string, script = false): string {
  return `<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} - ${escapeHtml(productName)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">${escapeHtml(productName)}</p>
${body}
</main>
${script ? `<script>${SCRIPT_SUBMIT}</script>` : ''}
</body>
</html>
`;
}

export function loginPage(opts: { action: string; productName: string; username?: string; error?: string }): string {
  const error = opts.error ? `<div class="error" role="alert">${escapeHtml(opts.error)}</div>` : '';
  return layout(
    '贸易商登录',
    opts.productName,
    `<h1>贸易商登录</h1>
${error}
<form method="post" action="${escapeHtml(opts.action)}" autocomplete="on">
<label for="username">用户名</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" value="${escapeHtml(opts.username ?? '')}"${opts.username ? '' : ' autofocus'}>
<label for="password">密码</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${opts.username ? ' autofocus' : ''}>
<button type="submit">登录</button>
</form>`,
  );
}

export function messagePage(opts: {
  title: string;
  message: string;
  productName: string;
  link?: { href: string; text: string };
}) {
  const link = opts.link ? `<p><a href="${escapeHtml(opts.link.href)}">${escapeHtml(opts.link.text)}</a></p>` : '';
  return layout(
    opts.title,
    opts.productName,
    `<h1>${escapeHtml(opts.title)}</h1>\n<p>${escapeHtml(opts.message)}</p>\n${link}`,
  );
}

/** A form that submits itself (a fallback only: logout normally redirects without any page). */
export function autoSubmitPage(opts: { title: string; productName: string; form: string; button: string }) {
  return layout(
    opts.title,
    opts.productName,
    `<h1>${escapeHtml(opts.title)}</h1>\n${opts.form}\n<noscript><button type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(opts.button)}</button></noscript>`,
    true,
  );
}
