import { Button, Card, Center, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import { saveSession, type PricerUser } from '../auth/session';
import { loginErrorMessage } from './loginError';

const t = zh.pricer;

interface LoginData extends PricerUser {
  jwt_token: string;
}

export function LoginPage() {
  const { tenantId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ username: false, password: false });
  const [busy, setBusy] = useState(false);
  const tenant = useQuery({
    queryKey: ['tenant-info', tenantId],
    queryFn: () =>
      api.rpc<{ data: { company_name: string } }>('/api/pricer/rpc/get-tenant-info', { tenant_id: Number(tenantId) }),
    enabled: /^\d+$/.test(tenantId),
    retry: false,
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched({ username: true, password: true });
    if (!/^\d+$/.test(tenantId)) return void notify(t.invalidCompanyCode, 'error');
    if (!username.trim() || !password) return void notify(t.fillRequired, 'warning');
    setBusy(true);
    try {
      const resp = await api.rpc<{ result?: string; data?: LoginData }>('/api/pricer/rpc/pricer-login', {
        tenant_id: Number(tenantId),
        username: username.trim(),
        password,
      });
      const d = resp.data;
      if (resp.result !== 'ok' || !d?.jwt_token) throw new Error(t.loginFormatError);
      saveSession({
        token: d.jwt_token,
        user: { user_id: d.user_id, username: d.username, tenant_id: d.tenant_id, company_name: d.company_name },
      });
      notify(t.loginSuccess, 'success');
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from ?? `/pricer/${tenantId}/dashboard`, { replace: true });
    } catch (error) {
      notify(loginErrorMessage(error), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h3" ta="center">
              {t.loginTitle}
            </Title>
            <Text size="sm" c="dimmed" ta="center" data-testid="company">
              {t.companyCode}：{tenantId}
              {tenant.data?.data?.company_name ? ` · ${tenant.data.data.company_name}` : ''}
            </Text>
            <TextInput
              label={t.username}
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              onBlur={() => setTouched((s) => ({ ...s, username: true }))}
              error={touched.username && !username.trim() ? t.usernameRequired : undefined}
              withAsterisk
            />
            <PasswordInput
              label={t.password}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              onBlur={() => setTouched((s) => ({ ...s, password: true }))}
              error={touched.password && !password ? t.passwordRequired : undefined}
              withAsterisk
            />
            <Button type="submit" loading={busy} fullWidth>
              {busy ? t.loggingIn : t.login}
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
