import { expect, test, type Page } from '@playwright/test';
import { expectNoEnglish } from '../common/english';
import { demoTrader, LOGIN_PAGE } from './support';

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

test.describe('trader console language', () => {
  test('sign-in, every page and every dialog: Chinese only', async ({ page }) => {
    await page.goto('/trader/dashboard');
    await expect(page).toHaveURL(LOGIN_PAGE);
    await expectNoEnglish(page, 'provider sign-in');
    await page.locator('#username').fill(demoTrader.username);
    await page.locator('#password').fill(demoTrader.password);
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await expect(page.getByTestId('orders-card')).toBeVisible();
    await expectNoEnglish(page, 'dashboard');

    await page.getByRole('button', { name: '系统配置', exact: true }).click();
    const settings = dialog(page, '系统配置');
    await settings.getByRole('checkbox', { name: /模拟交易/ }).uncheck();
    await settings.getByRole('button', { name: '保存' }).click();
    await expect(settings.getByText('请输入期货账户')).toBeVisible();
    await expectNoEnglish(page, 'settings dialog');
    await settings.getByRole('button', { name: '取消' }).click();

    await page.getByRole('link', { name: '客户管理' }).click();
    const users = page.getByRole('table', { name: '客户列表' });
    await expect(users).toContainText('pricer1');
    await expectNoEnglish(page, 'customers');
    await page.getByRole('button', { name: '新建客户' }).click();
    await dialog(page, '新建客户').getByLabel('用户名').fill('a');
    await dialog(page, '新建客户').getByLabel(/^密码/).fill('b');
    await dialog(page, '新建客户').getByRole('button', { name: '创建' }).click();
    await expect(dialog(page, '新建客户').getByText('用户名至少 2 个字符')).toBeVisible();
    await expectNoEnglish(page, 'create customer dialog');
    await page.keyboard.press('Escape');
    const row = users.getByRole('row').filter({ hasText: 'pricer1' });
    await row.getByRole('button', { name: '重置密码 pricer1' }).click();
    await dialog(page, '重置密码：pricer1').getByRole('button', { name: '重置' }).click();
    await expect(dialog(page, '重置密码：pricer1').getByText('请输入新密码')).toBeVisible();
    await expectNoEnglish(page, 'reset password dialog');
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: '停用 pricer1' }).click();
    await expect(dialog(page, '停用客户：pricer1')).toBeVisible();
    await expectNoEnglish(page, 'deactivate dialog');
    await dialog(page, '停用客户：pricer1').getByRole('button', { name: '取消' }).click();

    await page.getByRole('link', { name: '合同管理' }).click();
    await expect(page.getByRole('table', { name: '合同列表' })).toContainText('铜2701-pricer1');
    await expectNoEnglish(page, 'contracts');
    await page.getByRole('button', { name: '新建合同' }).click();
    const create = dialog(page, '新建合同');
    await create.getByRole('button', { name: '创建' }).click();
    await expect(create.getByText('请选择客户')).toBeVisible();
    await create.getByTestId('contract-product').click();
    await expect(page.getByRole('option', { name: '铜', exact: true }).filter({ visible: true })).toBeVisible();
    await expectNoEnglish(page, 'contract dialog');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: '打开菜单' }).click();
    await expect(page.getByRole('dialog', { name: '点价宝 · 管理端' })).toBeVisible();
    await expectNoEnglish(page, 'sidebar sheet 375');
  });
});
