import { loadRemoteApp, type RemoteName } from './remotes';
import { withReloadOnce } from './reloadOnce';

/** A react-router `lazy` that renders the remote's exposed route tree. */
export const remoteRoute = (name: RemoteName) => async () => ({
  Component: await withReloadOnce(() => loadRemoteApp(name)),
});
