import { Alert, Button, Card, Center, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@pfp/mantine';
import { isHttpError } from '@pfp/api-client';
import { zh } from '@pfp/i18n';
import { notify, TOAST_DURATION } from '@pfp/ui';
import { schemaResolver, useForm } from '@mantine/form';
import { pricerLoginInput } from '@pfp/contract';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from '@pfp/router';
import { useDemoOn, useLogin, useTenantInfo } from '../shared/api';
import { saveSession } from '../shared/session/session';
import { useSessionEnd } from '../shared/session/useSession';
import { loginErrorMessage } from './loginError';

/**
 * The server's answers to a login share one toast: an old refusal never lingers beside a new answer
 * (issue 29). A form warning takes that toast's place while it shows, else it is a toast of its own (so
 * repeated warnings stack up to the SPEC's 3 visible).
 */
const LOGIN_TOAST = 'pricer-login';
/** When the server's last answer was toasted (one login page at a time). */
let answeredAt = Number.NEGATIVE_INFINITY;
function answer(message: string, kind: 'success' | 'error', duration?: number) {
  answeredAt = Date.now();
  notify(message, kind, duration, LOGIN_TOAST);
}
const answerShowing = () => Date.now() - answeredAt < TOAST_DURATION.error;

const t = zh.pricer;

/**
 * The demo tenant's code; its login is prefilled with the demo pricer (SPEC §9 "Defaults"), only while
 * the server runs the demo data (GET /api/config `demo`, issue 30).
 */
const DEMO_TENANT = '1';
const DEMO_LOGIN = { username: 'pricer1', password: 'pricer123' };

/** The prefill of the login form: the demo customer for company code 1, only while the demo is on. */
export function demoPrefill(tenantId: string, demoOn: boolean | undefined): LoginValues | null {
  return tenantId === DEMO_TENANT && demoOn === true ? DEMO_LOGIN : null;
}

/** SPEC §5 "Customer login": the login request's own rules for the two fields. */
export const loginSchema = pricerLoginInput.pick({ username: true, password: true });
type LoginValues = { username: string; password: string };

/** A company code is a positive integer. */
export function parseTenantId(value: string | undefined): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 ? n : null;
}

/** Where to go after login: the remembered page of this tenant, else its desk. */
export function afterLoginPath(tenantId: string, from: unknown): string {
  const base = `/pricer/${tenantId}`;
  if (typeof from === 'string' && from.startsWith(`${base}/`) && !from.startsWith(`${base}/login`)) return from;
  return `${base}/dashboard`;
}

/** SPEC §2 "Login page" and §5 "Customer login". */
export function LoginPage() {
  const { tenantId = '' } = useParams();
  const tenant = parseTenantId(tenantId);
  const navigate = useNavigate();
  const location = useLocation();
  const ended = useSessionEnd();
  const demoOn = useDemoOn();
  const prefill = demoPrefill(tenantId, demoOn.data);
  const form = useForm<LoginValues>({
    initialValues: { username: '', password: '' },
    validate: schemaResolver(loginSchema, { sync: true }),
    // SPEC §5: the messages show after a field is left; typing clears them.
    validateInputOnBlur: true,
  });
  // The prefill arrives with the config answer. Once the customer has been in a field (focused,
  // typed, cleared) the form is theirs: a late prefill would turn 登录 on a field they emptied into a
  // login as the demo customer.
  const { setValues, isTouched } = form;
  const prefilled = useRef(false);
  useEffect(() => {
    if (!prefill || prefilled.current) return;
    prefilled.current = true;
    if (!isTouched()) setValues(prefill);
  }, [prefill, isTouched, setValues]);
  // 账户已停用 also when a login is refused for it (403 account_disabled), not only after a session ended.
  const [refusedDisabled, setRefusedDisabled] = useState(false);
  const busy = form.submitting;
  const info = useTenantInfo(tenant);
  const { mutateAsync: login } = useLogin();
  const unknownCompany = isHttpError(info.error) && info.error.status === 404;

  async function submit(values: LoginValues) {
    if (tenant === null) return void answer(t.invalidCompanyCode, 'error');
    try {
      const d = await login({ tenant_id: tenant, username: values.username.trim(), password: values.password });
      saveSession({
        token: d.jwt_token,
        user: { user_id: d.user_id, username: d.username, tenant_id: d.tenant_id, company_name: d.company_name },
      });
      answer(t.loginSuccess, 'success', 2000);
      navigate(afterLoginPath(tenantId, (location.state as { from?: unknown } | null)?.from), { replace: true });
    } catch (error) {
      setRefusedDisabled(isHttpError(error) && error.serverCode === 'account_disabled');
      answer(loginErrorMessage(error), 'error');
    }
  }

  const refused = () =>
    notify(
      tenant === null ? t.invalidCompanyCode : t.fillRequired,
      tenant === null ? 'error' : 'warning',
      undefined,
      answerShowing() ? LOGIN_TOAST : undefined,
    );

  let company: string | null = null;
  if (tenant === null) company = t.invalidCompanyCode;
  else if (unknownCompany) company = t.companyNotFound;
  else if (info.data) company = info.data.company_name;
  else if (info.isPending) company = t.companyLoading;

  return (
    <Center mih="100vh" p="md" component="main">
      <Card withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={400}>
        <form onSubmit={form.onSubmit(submit, refused)} noValidate>
          <Stack>
            <Title order={1} size="h3" ta="center">
              {t.loginTitle}
            </Title>
            {ended === 'disabled' || refusedDisabled ? (
              <Alert color="red" variant="light" role="alert" data-testid="account-disabled">
                {t.accountDisabled}
              </Alert>
            ) : ended ? (
              <Alert color="orange" variant="light" role="alert">
                {t.authExpired}
              </Alert>
            ) : null}
            <Stack gap={2} align="center" data-testid="company">
              <Text size="sm">
                {t.companyCode}：{tenantId}
              </Text>
              {company !== null ? (
                <Text
                  size="sm"
                  fw={500}
                  c={tenant === null || unknownCompany ? 'red' : 'dimmed'}
                  data-testid="company-name"
                >
                  {company}
                </Text>
              ) : null}
            </Stack>
            <TextInput label={t.username} autoComplete="username" withAsterisk {...form.getInputProps('username')} />
            <PasswordInput
              label={t.password}
              autoComplete="current-password"
              withAsterisk
              {...form.getInputProps('password')}
            />
            <Button type="submit" disabled={busy} leftSection={busy ? <Loader size={14} /> : undefined} fullWidth>
              {busy ? t.loggingIn : t.login}
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
