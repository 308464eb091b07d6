/**
 * The part of React Router this platform uses, shared once across the page by module federation.
 *
 * A federated singleton is provided whole: sharing react-router itself made every page fetch all of
 * it (~65 KB gzipped, framework and server-rendering code included); sharing this list fetches what
 * the host, the three remotes and their tests use (~34 KB). Apps and packages import the router from
 * here (ESLint refuses react-router elsewhere). Like @pfp/mantine, the list is a contract between
 * independently deployed apps: it only grows, and a release that adds to it reaches the host before
 * the remote that needs it (docs/architecture.md).
 */
export {
  BrowserRouter,
  createBrowserRouter,
  createMemoryRouter,
  Link,
  Navigate,
  Outlet,
  Route,
  RouterProvider,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
