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
