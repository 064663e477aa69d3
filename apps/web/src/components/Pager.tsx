export const Pager = (props: {
  page: number;
  lastPage: number;
  total: number;
  onPage: (page: number) => void;
}) => {
  const { page, lastPage, total, onPage } = props;
  if (total === 0) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ← Previous
      </button>
      <span aria-live="polite">
        Page {page} of {lastPage} ({total} in all)
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= lastPage}>
        Next →
      </button>
    </nav>
  );
};

type SnapshotPageMeta = {
  period_date: string;
  pagination: { mode: "page"; page: number; last_page: number; total: number } | { mode: "cursor" };
};

/** Under a snapshot list: which date the figures are of, and the pager when paging by number. */
export const SnapshotFooter = ({
  meta,
  onPage,
}: {
  meta: SnapshotPageMeta;
  onPage: (page: number) => void;
}) => (
  <>
    <p className="meta">Data of {meta.period_date}</p>
    {meta.pagination.mode === "page" ? (
      <Pager
        page={meta.pagination.page}
        lastPage={meta.pagination.last_page}
        total={meta.pagination.total}
        onPage={onPage}
      />
    ) : null}
  </>
);

export const Loading = ({ what }: { what: string }) => (
  <p className="loading" role="status">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: React.ReactNode }) => (
  <p className="empty" role="status">
    {children}
  </p>
);
