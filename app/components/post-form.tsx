import { forwardRef } from "react";
import { Form, type FormProps } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";

/**
 * The one way to write a form that changes state: a POST (works without script; Remix enhances
 * it with script) carrying the buyer's CSRF token, with the browser's own validation bubbles off
 * because the server validates and words every error itself.
 */
export const PostForm = forwardRef<HTMLFormElement, Omit<FormProps, "method">>(function PostForm(
  { children, ...props },
  ref,
) {
  return (
    <Form ref={ref} method="post" noValidate {...props}>
      <AuthenticityTokenInput />
      {children}
    </Form>
  );
});
