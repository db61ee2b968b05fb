// A screen that a later part of the admin app builds; it says so rather than pretending.
/** A titled placeholder for a screen not built yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p className="notice">This screen is not built yet; it comes in a later part of the admin app. Everything it will do is already available over /v2.</p>
    </>
  );
}
