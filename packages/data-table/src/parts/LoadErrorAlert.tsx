import { Alert } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { loadErrorDetail } from '../loadError';

/** SPEC §2/§8: “数据加载失败”，下面是服务端的中文说明（有的话）。 */
export function LoadErrorAlert({ error }: { error: unknown }) {
  const detail = loadErrorDetail(error);
  return (
    <Alert color="red" variant="light" role="alert" title={zh.table.loadError}>
      {detail !== null && detail !== zh.table.loadError ? detail : null}
    </Alert>
  );
}
