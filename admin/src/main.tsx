// The admin app's entry: the query cache, the router, and the page's styles.
import "./styles/app.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { router } from "./router.tsx";
import { onSessionChange, isSignedIn } from "./api/session.ts";

const queries = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false, refetchOnWindowFocus: false } } });

// Signing out drops every cached answer and sends the person to the sign-in screen.
onSessionChange(() => {
  if (isSignedIn()) return;
  queries.clear();
  void router.navigate({ to: "/sign-in", search: {} });
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
