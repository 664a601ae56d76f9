// The frame of a full-width screen (contacts, reports, administration): a header with the title,
// an optional line under it and the screen's actions, then the content, which scrolls by itself.
import type { ReactNode } from 'react';
import './page.css';

interface PageProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** A link back (breadcrumb), shown above the title. */
  back?: ReactNode;
  children: ReactNode;
  /** Narrow pages (forms, settings) read better under ~52rem. */
  width?: 'narrow' | 'wide';
}

export function Page({ title, description, actions, back, children, width = 'wide' }: PageProps) {
  return (
    <div className="page">
      <div className={`page__inner page__inner--${width}`}>
        <header className="page__header">
          <div className="page__heading">
            {back ? <div className="page__back">{back}</div> : null}
            <h1 className="page__title">{title}</h1>
            {description ? <p className="page__description">{description}</p> : null}
          </div>
          {actions ? <div className="page__actions">{actions}</div> : null}
        </header>
        {children}
      </div>
    </div>
  );
}

/** A titled block of a page, on a surface with a border. */
export function Card({ title, actions, children, id }: { title?: string; actions?: ReactNode; children: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="card" aria-labelledby={title ? headingId : undefined} id={id}>
      {title || actions ? (
        <div className="card__header">
          {title ? (
            <h2 className="card__title" id={headingId}>
              {title}
            </h2>
          ) : (
            <span />
          )}
          {actions ? <div className="card__actions">{actions}</div> : null}
        </div>
      ) : null}
      <div className="card__body">{children}</div>
    </section>
  );
}

/** A row of controls above a list (search box, filters). */
export function Toolbar({ children, label }: { children: ReactNode; label?: string }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of form controls, not a form
    <div className="toolbar" role="group" aria-label={label}>
      {children}
    </div>
  );
}

/** An error banner for a form or a screen. */
export function ErrorBanner({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
