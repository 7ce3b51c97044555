/** A worker module that cannot load (as one whose package was left out of the install): for the BoundedPool test. */
throw new Error('this worker cannot start');
