import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoTrader, screenshot, signIn } from '../trader/support';

/*
 * 发送测试消息 on 通知推送 (issue 41 item 6), against a real robot on loopback: this suite's server may call
 * private addresses (WEBHOOK_ALLOW_PRIVATE=1 on the host suite's server only, playwright.config.ts; the
 * trader suite keeps the refusal of a loopback address). The trader saves the robot's address, presses
 * 发送测试消息 and reads 测试消息已送达 while the robot received the Chinese test text; then a robot that
 * answers HTTP 200 with a 钉钉 refusal (errcode 310000) is shown as not delivered, with its reason.
 */

const received: string[] = [];
let reply = '{"errcode":0,"errmsg":"ok"}';
let robot: Server;

test.beforeAll(async () => {
  robot = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => robot.close(resolve));
});

test('发送测试消息 shows the robot’s answer: delivered, then a 200 with errcode refused (1366 px)', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const url = `http://127.0.0.1:${(robot.address() as AddressInfo).port}/robot/send?access_token=e2e`;
  await signIn(page, demoTrader, '/trader/notifications', /\/trader\/notifications$/);
  await page.getByLabel('推送地址（群机器人地址）').fill(url);
  await page.getByLabel('签名密钥').fill('e2e-secret-1');
  await page.getByRole('button', { name: '保存推送设置' }).click();
  await expect(page.getByText('推送设置已保存')).toBeVisible();

  const send = page.getByRole('button', { name: '发送测试消息' });
  await expect(send).toBeEnabled();
  await send.click();
  const result = page.getByTestId('webhook-test-result');
  await expect(result).toHaveText('测试消息已送达');
  expect(received).toHaveLength(1);
  const sent = JSON.parse(received[0]!) as { text?: { content?: string } };
  expect(sent.text?.content).toContain('测试消息');
  expect(sent.text?.content).toContain('这是一条来自快期点价宝的测试消息：收到即表示通知推送设置正确');
  await screenshot(page, testInfo, 'webhook-test-delivered-1366');

  // The robot answers HTTP 200 but refuses (钉钉: keyword or signature not matched): not delivered, with why.
  reply = '{"errcode":310000,"errmsg":"keywords not in content"}';
  await send.click();
  await expect(result).toHaveText(
    '测试消息未送达：签名、关键词或 IP 白名单校验未通过（错误码 310000，接收方原文：keywords not in content）',
  );
  expect(received).toHaveLength(2);
  await screenshot(page, testInfo, 'webhook-test-refused-1366');
});
